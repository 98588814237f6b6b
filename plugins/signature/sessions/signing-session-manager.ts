import { createHash, randomUUID } from 'node:crypto'
import { orderedId } from './ordered-id.ts'
import { readFile } from 'node:fs/promises'
import { z } from 'zod'
import { ERR_ACCESS_DENIED, ERR_CONFLICT, ERR_UNAUTHENTICATED } from '../../../core/http/errors.ts'
import { parseInput } from '../../../core/http/validate.ts'
import type { Policy } from '../../../core/access/policy.ts'
import type { Disk } from '../../../core/storage/disk.ts'
import type { PublicUser } from '../../../core/auth/user-repository.ts'
import { UUID } from '../../../core/http/uuid.ts'
import type { SigningIdentity } from '../certificates/index.ts'
import type { PdfTemplate } from '../contracts/pdf-template.ts'
import type { SignableSource } from '../contracts/signable-source.ts'
import type { SlotPlacement } from '../database/template-slot-repository.ts'
import {
  ERR_SESSION_CLOSED, ERR_SESSION_NOT_FOUND, ERR_SESSION_OUT_OF_ORDER, ERR_SESSION_REQUEST_CLOSED, ERR_SESSION_REQUEST_NOT_FOUND,
  ERR_SESSION_REQUEST_NOT_YOURS, ERR_SESSION_SIGNER_NOT_SIGNATORY, ERR_SESSION_SIGNER_REPEATED, ERR_SESSION_SIGNERS_INVALID,
  ERR_SIGNABLE_NOT_FOUND, ERR_TEMPLATE_NOT_FOUND,
} from '../errors.ts'
import type { DigitalSignatureTable } from '../library/library-tables.ts'
import type { SigningMaterial } from '../library/signature-library.ts'
import type { PdfWorkerPool } from '../pdf/pdf-worker-pool.ts'
import type { SessionFinalizeResult, SessionFinalizer, SessionRequestView } from '../signing/session-finalizer.ts'
import { maySeeRecord } from '../signables/record-visibility.ts'
import { signatoriesOf } from '../signables/signatories.ts'
import { sessionSignerProblems } from '../signables/slot-signers.ts'
import type { SessionRepository } from './session-repository.ts'
import type { SessionEventKind, SigningSessionEventTable, SigningSessionRequestTable, SigningSessionTable } from './session-tables.ts'
import { defaultSignerUrl, type SignerUrlBuilder } from './signer-url.ts'

export const SESSION_PERMISSION = {
  create: 'signing-sessions:create',
  readAny: 'signing-sessions:read-any',
  /** Cancelling someone else's session; a creator may always cancel their own. */
  cancelAny: 'signing-sessions:cancel',
} as const
/** A claim held this long belongs to a process that died mid-signing: it may be taken over. */
export const DEFAULT_STALE_CLAIM_MS = 5 * 60_000
/** Parallel signers of one session race for its current document; the loser rebuilds on the new one. */
const MAX_REBASES = 8

export interface SessionManagerDependencies {
  repository: SessionRepository
  registry: { find(key: string): PdfTemplate | null | undefined }
  slots: { find(templateKey: string, slotKey: string): Promise<SlotPlacement | null> }
  source: SignableSource
  users: { findById(id: string): Promise<{ id: string; name: string } | null> }
  library: {
    signingMaterial(userId: string, uuid: string): Promise<SigningMaterial>
    list(userId: string): Promise<Array<{ uuid: string; status: string; primary: boolean }>>
  }
  policy: Policy
  disk: Disk
  pdf: Pick<PdfWorkerPool, 'run'>
  /** The application's certificate, which certifies every frozen document; loaded on first use. */
  applicationSigner: () => Promise<SigningIdentity>
  /** How long a claim lasts before another finalize may take it over (default 5 minutes). */
  staleClaimMs?: number
  now?: () => Date
  /** Test seams: throwing in either must leave the session exactly as it was. */
  hooks?: {
    afterDocumentWritten?(info: { sessionId: string; requestId: string; documentKey: string }): Promise<void> | void
    beforeCommit?(info: { sessionId: string; requestId: string }): Promise<void> | void
  }
}

const slotKey = z.string().min(1).max(120)
const createSchema = z.strictObject({
  template: z.string().min(1).max(120),
  signable: z.string().min(1).max(120),
  mode: z.enum(['sequential', 'parallel']).default('sequential'),
  signers: z.array(z.strictObject({
    slot: slotKey,
    /** Defaults to the user bound by the slot's `signatory` field on the record. */
    user: z.string().min(1).max(64).optional(),
    /** Defaults to the slot's `order`, then to the position in this list. */
    order: z.number().int().min(0).max(1000).optional(),
  })).min(1).max(50).optional(),
}).strict()
const declineSchema = z.strictObject({ reason: z.string().trim().min(1, 'required').max(1000) })

export interface SessionRequestJson {
  id: string
  slot: string
  field: string
  signer: { id: string; name: string | null }
  order: number
  status: string
  placement: { page: number; x: number; y: number; width: number; height: number }
  signatureUuid: string | null
  documentSha256: string | null
  signedAt: string | null
  declinedAt: string | null
  declineReason: string | null
  /** Null until the signer has an active signature in their library (the signer page is addressed by it). */
  signerUrl: string | null
}

export interface SessionJson {
  id: string
  template: string
  signable: { id: string; title: string }
  mode: string
  status: string
  createdBy: string
  createdAt: string
  updatedAt: string
  closedAt: string | null
  frozenSha256: string
  currentSha256: string
  revision: number
  documentUrl: string
  requests: SessionRequestJson[]
  events?: Array<{ event: string; requestId: string | null; actor: string | null; address: string | null; sha256Before: string | null; sha256After: string | null; detail: string | null; at: string }>
}

export interface InboxItem {
  requestId: string
  sessionId: string
  template: string
  signable: { id: string; title: string }
  slot: string
  mode: string
  status: string
  /** False while earlier signers of a sequential session have not signed. */
  yourTurn: boolean
  createdAt: string
  signerUrl: string | null
  documentUrl: string
}

function sha256(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex')
}

/**
 * Signing sessions: one document, several signers, every signature valid. Freezes the record's
 * PDF once (certified, one empty field per slot) and chains each signer's incremental update on
 * the previous revision. The SessionFinalizer half is what the signer page's finalize calls.
 */
export class SigningSessionManager implements SessionFinalizer {
  readonly #deps: SessionManagerDependencies
  readonly #now: () => Date
  #signerUrl: SignerUrlBuilder = defaultSignerUrl

  constructor(deps: SessionManagerDependencies) {
    this.#deps = deps
    this.#now = deps.now ?? (() => new Date())
  }

  /** The inbox plugin sets this once the app panel's routes (and the signer's named route) exist. */
  useSignerUrl(builder: SignerUrlBuilder): void {
    this.#signerUrl = builder
  }

  /** The signer page opened on this request with the signer's primary (else first) active signature. */
  async signerUrl(templateKey: string, requestId: string, signerUserId: string): Promise<string | null> {
    const active = (await this.#deps.library.list(signerUserId)).filter((s) => s.status === 'active')
    const chosen = active.find((s) => s.primary) ?? active[0]
    return chosen ? this.#signerUrl({ templateKey, signatureUuid: chosen.uuid, requestId }) : null
  }

  // ---------------------------------------------------------------- creation (freeze once)

  async create(user: PublicUser | null | undefined, body: unknown, address?: string): Promise<SessionJson> {
    if (!user) throw ERR_UNAUTHENTICATED()
    const { policy } = this.#deps
    if (!policy.can(user.role, SESSION_PERMISSION.create)) throw ERR_ACCESS_DENIED(`You do not have permission "${SESSION_PERMISSION.create}"`)
    const input = parseInput(createSchema, body, 'body')
    const template = this.#deps.registry.find(input.template)
    if (!template) throw ERR_TEMPLATE_NOT_FOUND(`No PDF template is registered under the key ${JSON.stringify(input.template)}`)
    const record = await this.#deps.source.find(input.template, input.signable)
    // A record the creator may not see is answered exactly like one that does not exist.
    if (!record || !maySeeRecord(policy, template, record, user)) {
      throw ERR_SIGNABLE_NOT_FOUND(`No record ${JSON.stringify(input.signable)} of template ${JSON.stringify(input.template)}`)
    }
    const signers = await this.#resolveSigners(template, record, input.signers)

    const id = randomUUID()
    const at = this.#now().toISOString()
    const fields = await Promise.all(signers.map(async (signer) => {
      const slot = signer.slot
      const saved = await this.#deps.slots.find(template.key(), slot.key)
      const placement = saved ?? { page: slot.defaultPage, x: slot.defaultX, y: slot.defaultY, width: slot.defaultWidth, height: slot.defaultHeight }
      return { ...signer, fieldName: slot.key.replace(/\./g, '_'), placement }
    }))

    const { disk, pdf } = this.#deps
    const source = await readFile(await template.renderFor(record))
    // freezeDocument loads and saves the whole file once (normalizing it: cross-reference streams
    // and object streams become a classic table), creates every field and certifies that revision.
    const frozen = await pdf.run('freezeDocument', source, {
      fields: fields.map((f) => ({ name: f.fieldName, ...f.placement })),
      signer: await this.#deps.applicationSigner(),
      reason: `Certified for signing: ${record.getSignableTitle()}`,
      signingTime: new Date(at),
    })
    const frozenKey = `sessions/${id}/000-frozen.pdf`
    const frozenSha = sha256(frozen)
    await disk.put(frozenKey, frozen)

    const session: SigningSessionTable = {
      id, template_key: template.key(), signable_id: record.getSignableId(), signable_title: record.getSignableTitle().slice(0, 500),
      mode: input.mode, status: 'active', created_by: user.id, frozen_document_key: frozenKey, frozen_sha256: frozenSha,
      current_document_key: frozenKey, current_sha256: frozenSha, revision: 0, created_at: at, updated_at: at, closed_at: null,
    }
    const requests: SigningSessionRequestTable[] = fields.map((f) => ({
      id: randomUUID(), session_id: id, slot_key: f.slot.key, field_name: f.fieldName, signer_user_id: f.userId, sign_order: f.order,
      status: 'pending', page: f.placement.page, x: f.placement.x, y: f.placement.y, width: f.placement.width, height: f.placement.height,
      claim_token: null, claimed_at: null, signature_uuid: null, document_key: null, document_sha256: null, decline_reason: null,
      signed_at: null, declined_at: null, created_at: at, updated_at: at,
    }))
    try {
      await this.#deps.repository.insertSession(session, requests, this.#event(id, null, 'created', user.id, null, frozenSha, at, `${input.mode}; ${requests.length} signer(s)`, address))
    } catch (error) {
      // A row never points at a missing file, and a file without rows is removed.
      await disk.delete(frozenKey).catch(() => {})
      throw error
    }
    // The same order as every later read (sign order, then slot key).
    return this.#toJson(session, [...requests].sort((a, b) => a.sign_order - b.sign_order || (a.slot_key < b.slot_key ? -1 : a.slot_key > b.slot_key ? 1 : 0)))
  }

  async #resolveSigners(template: PdfTemplate, record: unknown, given: z.output<typeof createSchema>['signers']) {
    const slots = template.slots()
    const bound = new Map(signatoriesOf(template, record).map((s) => [s.slot, s.userId]))
    const entries = given ?? slots.filter((s) => s.required || bound.get(s.key)).map((s) => ({ slot: s.key, user: undefined, order: undefined }))
    const problems: string[] = []
    const seen = new Set<string>()
    const resolved: Array<{ slot: (typeof slots)[number]; userId: string; order: number }> = []
    for (const [index, entry] of entries.entries()) {
      const slot = slots.find((s) => s.key === entry.slot)
      if (!slot) { problems.push(`signers.${index}.slot: the template has no slot ${JSON.stringify(entry.slot)}`); continue }
      if (seen.has(slot.key)) { problems.push(`signers.${index}.slot: the slot ${JSON.stringify(slot.key)} is listed twice`); continue }
      seen.add(slot.key)
      const userId = entry.user ?? bound.get(slot.key) ?? null
      if (!userId) { problems.push(`signers.${index}.user: the slot ${JSON.stringify(slot.key)} needs a signer (no signatory on the record)`); continue }
      if (!(await this.#deps.users.findById(userId))) { problems.push(`signers.${index}.user: no user ${JSON.stringify(userId)}`); continue }
      resolved.push({ slot, userId, order: entry.order ?? slot.order ?? index + 1 })
    }
    for (const slot of slots) {
      if (slot.required && !seen.has(slot.key)) problems.push(`signers: the required slot ${JSON.stringify(slot.key)} has no signer`)
    }
    if (problems.length) throw ERR_SESSION_SIGNERS_INVALID(problems.join('; '), { details: { issues: problems } })
    const { notSignatory, repeated } = sessionSignerProblems(template, record, resolved)
    if (notSignatory.length) throw ERR_SESSION_SIGNER_NOT_SIGNATORY(notSignatory.join('; '), { details: { issues: notSignatory } })
    if (repeated.length) throw ERR_SESSION_SIGNER_REPEATED(repeated.join('; '), { details: { issues: repeated } })
    return resolved
  }

  // ---------------------------------------------------------------- reading

  async get(user: PublicUser | null | undefined, sessionId: string): Promise<SessionJson> {
    const { session, requests } = await this.#visibleSession(user, sessionId)
    const events = await this.#deps.repository.eventsOf(session.id)
    return { ...(await this.#toJson(session, requests)), events: events.map((e) => ({
      event: e.event, requestId: e.request_id, actor: e.actor_user_id, address: e.ip_address,
      sha256Before: e.sha256_before, sha256After: e.sha256_after, detail: e.detail, at: e.created_at,
    })) }
  }

  /** The current revision's bytes (the frozen file before anyone signed). */
  async document(user: PublicUser | null | undefined, sessionId: string): Promise<{ bytes: Buffer; sha256: string; fileName: string }> {
    const { session } = await this.#visibleSession(user, sessionId)
    const bytes = await this.#deps.disk.get(session.current_document_key)
    return { bytes, sha256: session.current_sha256, fileName: `${session.template_key}-${session.signable_id}-${session.status}.pdf`.replace(/[^A-Za-z0-9._-]/g, '_') }
  }

  /** Without mine: sessions the user created or signs in (all of them with read-any). */
  async list(user: PublicUser | null | undefined): Promise<SessionJson[]> {
    if (!user) throw ERR_UNAUTHENTICATED()
    const readAny = this.#deps.policy.can(user.role, SESSION_PERMISSION.readAny)
    const sessions = await this.#deps.repository.listSessions(readAny ? {} : { userId: user.id })
    return Promise.all(sessions.map(async (s) => this.#toJson(s, await this.#deps.repository.requestsOf(s.id))))
  }

  /** What waits for the user: their pending requests in active sessions. */
  async inbox(user: PublicUser | null | undefined): Promise<InboxItem[]> {
    if (!user) throw ERR_UNAUTHENTICATED()
    const rows = await this.#deps.repository.pendingFor(user.id)
    const result: InboxItem[] = []
    for (const row of rows) {
      let yourTurn = true
      if (row.mode === 'sequential') {
        const all = await this.#deps.repository.requestsOf(row.session_id)
        yourTurn = all.every((r) => r.sign_order >= row.sign_order || r.status === 'signed')
      }
      result.push({
        requestId: row.id, sessionId: row.session_id, template: row.template_key, signable: { id: row.signable_id, title: row.signable_title },
        slot: row.slot_key, mode: row.mode, status: row.status, yourTurn, createdAt: row.session_created_at,
        signerUrl: await this.signerUrl(row.template_key, row.id, user.id), documentUrl: `/api/signing-sessions/${row.session_id}/document`,
      })
    }
    return result
  }

  async #visibleSession(user: PublicUser | null | undefined, sessionId: string) {
    if (!user) throw ERR_UNAUTHENTICATED()
    const session = UUID.test(sessionId) ? await this.#deps.repository.findSession(sessionId) : undefined
    if (!session) throw ERR_SESSION_NOT_FOUND()
    const requests = await this.#deps.repository.requestsOf(session.id)
    const allowed = session.created_by === user.id || requests.some((r) => r.signer_user_id === user.id)
      || this.#deps.policy.can(user.role, SESSION_PERMISSION.readAny)
    // Someone with no part in a session learns nothing about it, not even that it exists.
    if (!allowed) throw ERR_SESSION_NOT_FOUND()
    return { session, requests }
  }

  // ---------------------------------------------------------------- cancel and decline

  async cancel(user: PublicUser | null | undefined, sessionId: string, address?: string): Promise<SessionJson> {
    const { session } = await this.#visibleSession(user, sessionId)
    if (session.created_by !== user!.id && !this.#deps.policy.can(user!.role, SESSION_PERMISSION.cancelAny)) {
      throw ERR_ACCESS_DENIED('Only the creator of a session (or a role with signing-sessions:cancel) may cancel it')
    }
    const at = this.#now().toISOString()
    const done = await this.#deps.repository.cancel(session.id, at, this.#event(session.id, null, 'cancelled', user!.id, session.current_sha256, session.current_sha256, at, null, address))
    if (!done) throw ERR_SESSION_CLOSED(`The session is ${(await this.#deps.repository.findSession(session.id))?.status}, it cannot be cancelled`)
    return this.get(user, sessionId)
  }

  async decline(user: PublicUser | null | undefined, sessionId: string, requestId: string, body: unknown, address?: string): Promise<SessionJson> {
    const { session, requests } = await this.#visibleSession(user, sessionId)
    const request = requests.find((r) => r.id === requestId)
    if (!request) throw ERR_SESSION_REQUEST_NOT_FOUND()
    if (request.signer_user_id !== user!.id) throw ERR_SESSION_REQUEST_NOT_YOURS()
    const { reason } = parseInput(declineSchema, body ?? {}, 'body')
    if (session.status !== 'active') throw ERR_SESSION_CLOSED(`The session is ${session.status}`)
    const now = this.#now()
    const at = now.toISOString()
    const done = await this.#deps.repository.decline(session.id, request.id, reason, at, this.#staleBefore(now),
      this.#event(session.id, request.id, 'declined', user!.id, session.current_sha256, session.current_sha256, at, reason, address))
    if (!done) throw ERR_SESSION_REQUEST_CLOSED(`The request is ${(await this.#deps.repository.findRequest(request.id))?.status}`)
    return this.get(user, sessionId)
  }

  // ---------------------------------------------------------------- SessionFinalizer

  async view(user: PublicUser, templateKey: string, requestId: string, address?: string, options: { recordOpening?: boolean } = {}): Promise<SessionRequestView> {
    const { session, request } = await this.#ownRequest(user, templateKey, requestId)
    if (options.recordOpening !== false) {
      const at = this.#now().toISOString()
      await this.#deps.repository.appendEvent(this.#event(session.id, request.id, 'opened', user.id, session.current_sha256, session.current_sha256, at, null, address))
    }
    return {
      slotKey: request.slot_key,
      documentPath: this.#deps.disk.path(session.current_document_key),
      // A pending request of a session that ended can no longer be signed: say what ended it.
      status: request.status === 'pending' && session.status !== 'active' ? session.status : request.status,
      sessionId: session.id,
      signableTitle: session.signable_title,
    }
  }

  async finalize(user: PublicUser, input: { templateKey: string; requestId: string; signatureUuid: string; address?: string }): Promise<SessionFinalizeResult> {
    const { repository, disk, pdf, hooks } = this.#deps
    const { session, request } = await this.#ownRequest(user, input.templateKey, input.requestId)
    // Precise refusals first; the claim below re-checks all of it atomically. A claim older than
    // the window is a dead process's: the claim takes it over, so it is not refused here.
    await this.#assertSignable(session, request, this.#staleBefore(this.#now()))
    const material = await this.#deps.library.signingMaterial(user.id, input.signatureUuid)

    const token = randomUUID()
    const claimedAt = this.#now()
    const staleBefore = this.#staleBefore(claimedAt)
    const claimed = await repository.claim(request.id, token, claimedAt.toISOString(), staleBefore)
    if (!claimed) {
      const fresh = await repository.findSession(session.id)
      const freshRequest = await repository.findRequest(request.id)
      await this.#assertSignable(fresh!, freshRequest!, staleBefore)
      throw ERR_SESSION_REQUEST_CLOSED('Another signing of this request is in progress')
    }

    let written: string | null = null
    try {
      for (let attempt = 0; attempt < MAX_REBASES; attempt++) {
        const current = await repository.findSession(session.id)
        if (!current || current.status !== 'active') throw ERR_SESSION_CLOSED(`The session is ${current?.status ?? 'gone'}`)
        const before = await disk.get(current.current_document_key)
        const shaBefore = sha256(before)
        if (shaBefore !== current.current_sha256) throw new Error(`The stored document of session ${session.id} does not match its SHA-256`)
        const signedAt = this.#now()
        const signedBytes = await pdf.run('signField', before, {
          fieldName: request.field_name,
          image: material.image,
          signer: { p12: material.p12, password: material.password },
          name: user.name,
          reason: `Signed as ${request.slot_key}: ${session.signable_title}`.slice(0, 200),
          signingTime: signedAt,
        })
        const shaAfter = sha256(signedBytes)
        // A new key per attempt: the previous revision's file is never touched.
        const documentKey = `sessions/${session.id}/${String(current.revision + 1).padStart(3, '0')}-${request.slot_key.replace(/[^A-Za-z0-9_-]/g, '_')}-${token.slice(0, 8)}.pdf`
        await disk.put(documentKey, signedBytes)
        written = documentKey
        await hooks?.afterDocumentWritten?.({ sessionId: session.id, requestId: request.id, documentKey })

        const at = signedAt.toISOString()
        const signatureUuid = randomUUID()
        const signature: DigitalSignatureTable = {
          uuid: signatureUuid, user_id: user.id, source_uuid: material.uuid, signable_type: session.template_key, signable_id: session.signable_id,
          status: 'signed', label: material.label, is_primary: 0, image_mime: null, image_base64: null, certificate_source: null,
          certificate_p12: null, certificate_password: null, certificate_subject: material.subject, certificate_not_after: null,
          document_key: documentKey, document_sha256: shaAfter, signed_at: at, created_at: at, updated_at: at,
        }
        const outcome = await repository.commitSignature({
          sessionId: session.id, requestId: request.id, claimToken: token, baseRevision: current.revision,
          documentKey, documentSha256: shaAfter, sha256Before: shaBefore, signedAt: at, signature,
          positions: [{ id: randomUUID(), signature_uuid: signatureUuid, template_key: session.template_key, slot_key: request.slot_key,
            page: request.page, x: request.x, y: request.y, width: request.width, height: request.height, created_at: at }],
          event: this.#event(session.id, request.id, 'signed', user.id, shaBefore, shaAfter, at, `signature ${signatureUuid}; certificate ${material.subject ?? ''}`.slice(0, 1000), input.address),
          completedEvent: this.#event(session.id, null, 'completed', user.id, shaAfter, shaAfter, at, null, input.address),
        }, hooks?.beforeCommit ? () => hooks.beforeCommit!({ sessionId: session.id, requestId: request.id }) : undefined)
        if (outcome.outcome === 'committed') {
          written = null
          return {
            status: 'signed', signature_uuid: signatureUuid, signed_document_path: documentKey, signed_at: at,
            session: { id: session.id, status: outcome.sessionStatus ?? 'active' }, request: { id: request.id, status: 'signed' },
          }
        }
        await disk.delete(documentKey).catch(() => {})
        written = null
        if (outcome.outcome === 'session-closed') throw ERR_SESSION_CLOSED('The session ended while this signature was being made')
        if (outcome.outcome === 'claim-lost') throw ERR_SESSION_REQUEST_CLOSED('This signing took longer than its claim lasts and another signing of the request took over')
        // 'revision-moved': another signer of a parallel session committed first; sign on top of theirs.
      }
      throw ERR_CONFLICT('The document kept changing while signing; try again')
    } catch (error) {
      if (written) await disk.delete(written).catch(() => {})
      await repository.release(request.id, token)
      throw error
    }
  }

  async #ownRequest(user: PublicUser, templateKey: string, requestId: string) {
    if (!user) throw ERR_UNAUTHENTICATED()
    const request = UUID.test(requestId) ? await this.#deps.repository.findRequest(requestId) : undefined
    const session = request ? await this.#deps.repository.findSession(request.session_id) : undefined
    if (!request || !session || session.template_key !== templateKey) throw ERR_SESSION_REQUEST_NOT_FOUND()
    if (request.signer_user_id !== user.id) throw ERR_SESSION_REQUEST_NOT_YOURS()
    return { session, request }
  }

  /** Claims made before this instant belong to a process that died: they may be taken over. */
  #staleBefore(now: Date): string {
    return new Date(now.getTime() - (this.#deps.staleClaimMs ?? DEFAULT_STALE_CLAIM_MS)).toISOString()
  }

  async #assertSignable(session: SigningSessionTable, request: SigningSessionRequestTable, staleBefore: string): Promise<void> {
    if (session.status !== 'active') throw ERR_SESSION_CLOSED(`The session is ${session.status}`)
    const stale = request.status === 'signing' && request.claimed_at !== null && request.claimed_at < staleBefore
    if (request.status !== 'pending' && !stale) throw ERR_SESSION_REQUEST_CLOSED(`The request is ${request.status}`)
    if (session.mode === 'sequential') {
      const waiting = (await this.#deps.repository.requestsOf(session.id))
        .filter((r) => r.sign_order < request.sign_order && r.status !== 'signed')
      if (waiting.length) throw ERR_SESSION_OUT_OF_ORDER(`Waiting for: ${waiting.map((r) => r.slot_key).join(', ')}`)
    }
  }

  #event(sessionId: string, requestId: string | null, event: SessionEventKind, actor: string | null, before: string | null, after: string | null, at: string, detail: string | null, address: string | undefined): SigningSessionEventTable {
    return {
      id: orderedId(), session_id: sessionId, request_id: requestId, event, actor_user_id: actor,
      ip_address: address?.slice(0, 64) ?? null, sha256_before: before, sha256_after: after, detail: detail?.slice(0, 1000) ?? null, created_at: at,
    }
  }

  async #toJson(session: SigningSessionTable, requests: SigningSessionRequestTable[]): Promise<SessionJson> {
    const names = new Map<string, string | null>()
    const urls = new Map<string, string | null>()
    for (const r of requests) {
      if (!names.has(r.signer_user_id)) names.set(r.signer_user_id, (await this.#deps.users.findById(r.signer_user_id))?.name ?? null)
      urls.set(r.id, r.status === 'pending' && session.status === 'active' ? await this.signerUrl(session.template_key, r.id, r.signer_user_id) : null)
    }
    return {
      id: session.id, template: session.template_key, signable: { id: session.signable_id, title: session.signable_title },
      mode: session.mode, status: session.status, createdBy: session.created_by, createdAt: session.created_at, updatedAt: session.updated_at,
      closedAt: session.closed_at, frozenSha256: session.frozen_sha256, currentSha256: session.current_sha256, revision: Number(session.revision),
      documentUrl: `/api/signing-sessions/${session.id}/document`,
      requests: requests.map((r) => ({
        id: r.id, slot: r.slot_key, field: r.field_name, signer: { id: r.signer_user_id, name: names.get(r.signer_user_id) ?? null }, order: Number(r.sign_order), status: r.status,
        placement: { page: Number(r.page), x: Number(r.x), y: Number(r.y), width: Number(r.width), height: Number(r.height) },
        signatureUuid: r.signature_uuid, documentSha256: r.document_sha256, signedAt: r.signed_at, declinedAt: r.declined_at,
        declineReason: r.decline_reason, signerUrl: urls.get(r.id) ?? null,
      })),
    }
  }
}
