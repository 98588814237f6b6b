import { randomUUID } from 'node:crypto'
import type { PublicUser } from '../../../core/auth/user-repository.ts'
import { ERR_CONFLICT } from '../../../core/http/errors.ts'
import { ERR_SESSION_CLOSED, ERR_SESSION_EXPIRED, ERR_SESSION_OUT_OF_ORDER, ERR_SESSION_REQUEST_CLOSED } from '../errors.ts'
import { isExpired } from './session-expiry.ts'
import type { SessionFinalizeResult, SessionRequestView } from '../signing/session-finalizer.ts'
import { sha256Hex } from '../signing/sha256-hex.ts'
import { signedSignatureRows } from '../signing/signed-signature-rows.ts'
import { ownRequest } from './session-access.ts'
import { staleBefore, type SessionContext } from './session-context.ts'
import { sessionEvent } from './session-events.ts'
import { sealSession } from './session-seal.ts'
import type { SigningSessionRequestTable, SigningSessionTable } from './session-tables.ts'
import { orderApplies, waitingFor } from './signing-order.ts'
import type { SigningMaterial } from '../library/signature-library.ts'
import type { SignatureCommit } from './session-repository.ts'
import { fieldValues, requestFields } from './request-fields.ts'

/** Parallel signers of one session race for its current document; the loser rebuilds on the new one. */
const MAX_REBASES = 8

/** What the signer page shows of a request; records its opening in the trail unless told not to. */
export async function requestView(ctx: SessionContext, user: PublicUser, templateKey: string, requestId: string, address?: string, options: { recordOpening?: boolean } = {}): Promise<SessionRequestView> {
  const { session, request } = await ownRequest(ctx, user, templateKey, requestId)
  if (options.recordOpening !== false) {
    await ctx.deps.repository.appendEvent(sessionEvent({
      sessionId: session.id, requestId: request.id, event: 'opened', actor: user.id,
      sha256Before: session.current_sha256, sha256After: session.current_sha256, at: ctx.now().toISOString(), address,
    }))
  }
  return {
    slotKey: request.slot_key,
    documentPath: ctx.deps.disk.path(session.current_document_key),
    // A pending request of a session that ended can no longer be signed: say what ended it.
    status: request.status === 'pending' && session.status !== 'active' ? session.status : request.status,
    sessionId: session.id,
    signableTitle: session.signable_title,
  }
}

/** Who signs a request, and with what: a user's library signature, or an external signer's one-off certificate. */
export interface RequestSigner {
  /** The user id for the trail; null for a signer without an account. */
  actor: string | null
  name: string
  /** The library signature the rows hang on; absent for a signer without an account. */
  material?: SigningMaterial
  p12: Buffer
  password: string
  certificateSubject: string | null
  image?: Uint8Array
  /** A typed signature: the name drawn as text in the field. */
  typed?: string
  identifiedBy: 'account' | 'email-code'
  address?: string | undefined
  userAgent?: string | undefined
  /** Values of the signer's initials and text fields, by field id. */
  values?: Record<string, string>
  /** Writes of the same transaction as the signature (the sign link consumed). */
  also?: SignatureCommit['also']
}

/**
 * Signs the user's request: claims it (at most once), appends an incremental update that fills
 * only its field on the current revision, and commits file, rows and events together; a parallel
 * signer who committed first makes this one sign again on top of theirs.
 */
export async function signRequest(ctx: SessionContext, user: PublicUser, input: { templateKey: string; requestId: string; signatureUuid: string; address?: string | undefined; userAgent?: string | undefined; values?: Record<string, string> }): Promise<SessionFinalizeResult> {
  const { session, request } = await ownRequest(ctx, user, input.templateKey, input.requestId)
  // Precise refusals first; the claim below re-checks all of it atomically. A claim older than
  // the window is a dead process's: the claim takes it over, so it is not refused here.
  await assertSignable(ctx, session, request, staleBefore(ctx, ctx.now()))
  const material = await ctx.deps.library.signingMaterial(user.id, input.signatureUuid)
  return signAs(ctx, session, request, {
    actor: user.id, name: user.name, material, p12: material.p12, password: material.password, certificateSubject: material.subject,
    image: material.image, identifiedBy: 'account', address: input.address, userAgent: input.userAgent, ...(input.values ? { values: input.values } : {}),
  })
}

/** The claim, the signing on the current revision and the commit: the same for every kind of signer. */
export async function signAs(ctx: SessionContext, session: SigningSessionTable, request: SigningSessionRequestTable, signer: RequestSigner): Promise<SessionFinalizeResult> {
  const { repository, disk, pdf, hooks } = ctx.deps
  await assertSignable(ctx, session, request, staleBefore(ctx, ctx.now()))
  const token = randomUUID()
  const claimedAt = ctx.now()
  const claimStaleBefore = staleBefore(ctx, claimedAt)
  const claimed = await repository.claim(request.id, token, claimedAt.toISOString(), claimStaleBefore)
  if (!claimed) {
    const fresh = await repository.findSession(session.id)
    const freshRequest = await repository.findRequest(request.id)
    await assertSignable(ctx, fresh!, freshRequest!, claimStaleBefore)
    throw ERR_SESSION_REQUEST_CLOSED('Another signing of this request is in progress')
  }
  const fields = requestFields(request)
  const how = signer.identifiedBy === 'account' ? 'identified by account' : 'identified by e-mail code'

  let written: string | null = null
  try {
    for (let attempt = 0; attempt < MAX_REBASES; attempt++) {
      const current = await repository.findSession(session.id)
      if (!current || current.status !== 'active') throw ERR_SESSION_CLOSED(`The session is ${current?.status ?? 'gone'}`)
      const before = await disk.get(current.current_document_key)
      const shaBefore = sha256Hex(before)
      if (shaBefore !== current.current_sha256) throw new Error(`The stored document of session ${session.id} does not match its SHA-256`)
      const signedAt = ctx.now()
      const fill = fieldValues(fields, { name: signer.name, day: signedAt.toISOString().slice(0, 10), values: signer.values ?? {} })
      // The request's own field first (with the signer's date, name and text fields), then any
      // further signature field of the same signer, each a signature of its own.
      const signatureFields = [request.field_name, ...fields.filter((f) => f.type === 'signature' && f.name !== request.field_name).map((f) => f.name)]
      let signedBytes: Uint8Array = before
      for (const [index, fieldName] of signatureFields.entries()) {
        signedBytes = await pdf.run('signField', signedBytes, {
          fieldName,
          ...(signer.image ? { image: signer.image } : { typed: signer.typed ?? signer.name }),
          ...(index === 0 && fill.length ? { fill } : {}),
          signer: { p12: signer.p12, password: signer.password },
          name: signer.name,
          reason: `Signed as ${request.slot_key}: ${session.signable_title}`.slice(0, 200),
          signingTime: signedAt,
        })
      }
      const shaAfter = sha256Hex(signedBytes)
      // A new key per attempt: the previous revision's file is never touched.
      const documentKey = `sessions/${session.id}/${String(current.revision + 1).padStart(3, '0')}-${request.slot_key.replace(/[^A-Za-z0-9_-]/g, '_')}-${token.slice(0, 8)}.pdf`
      await disk.put(documentKey, signedBytes)
      written = documentKey
      await hooks?.afterDocumentWritten?.({ sessionId: session.id, requestId: request.id, documentKey })

      const at = signedAt.toISOString()
      const signatureUuid = randomUUID()
      const rows = signer.material ? signedSignatureRows({
        uuid: signatureUuid, material: signer.material, documentKey, sha256: shaAfter, signedAt: at,
        subject: { type: session.template_key, id: session.signable_id, templateKey: session.template_key },
        placements: [{ slot: request.slot_key, page: request.page, x: request.x, y: request.y, width: request.width, height: request.height }],
      }) : null
      const outcome = await repository.commitSignature({
        sessionId: session.id, requestId: request.id, claimToken: token, baseRevision: current.revision,
        documentKey, documentSha256: shaAfter, sha256Before: shaBefore, signedAt: at, positions: rows?.positions ?? [],
        ...(rows ? { signature: rows.signature } : {}), identifiedBy: signer.identifiedBy, ...(signer.also ? { also: signer.also } : {}),
        event: sessionEvent({
          sessionId: session.id, requestId: request.id, event: 'signed', actor: signer.actor, sha256Before: shaBefore, sha256After: shaAfter, at,
          detail: `${how}; ${rows ? `signature ${signatureUuid}; ` : ''}certificate ${signer.certificateSubject ?? ''}`, address: signer.address, userAgent: signer.userAgent,
        }),
        completedEvent: sessionEvent({ sessionId: session.id, requestId: null, event: 'completed', actor: signer.actor, sha256Before: shaAfter, sha256After: shaAfter, at, address: signer.address, userAgent: signer.userAgent }),
      }, hooks?.beforeCommit ? () => hooks.beforeCommit!({ sessionId: session.id, requestId: request.id }) : undefined)
      if (outcome.outcome === 'committed') {
        written = null
        ctx.deps.metrics?.signatureMade('session')
        if (outcome.sessionStatus === 'completed') ctx.deps.metrics?.sessionCompleted()
        // The signature stands whatever happens next: a sealing that fails (or a crash before it)
        // leaves the completed B-T document, and the seal retry (session-seal-retry.ts) seals it later.
        if (outcome.sessionStatus === 'completed') await sealSession(ctx, session.id, null, signer.address, current.revision + 1).catch(() => undefined)
        return {
          status: 'signed', signature_uuid: rows ? signatureUuid : '', signed_document_path: documentKey, signed_at: at,
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

export async function assertSignable(ctx: SessionContext, session: SigningSessionTable, request: SigningSessionRequestTable, claimsStaleBefore: string): Promise<void> {
  if (session.status !== 'active') throw ERR_SESSION_CLOSED(`The session is ${session.status}`)
  if (isExpired(session, ctx.now())) throw ERR_SESSION_EXPIRED(`The session was due by ${session.due_at}`)
  const stale = request.status === 'signing' && request.claimed_at !== null && request.claimed_at < claimsStaleBefore
  if (request.status !== 'pending' && !stale) throw ERR_SESSION_REQUEST_CLOSED(`The request is ${request.status}`)
  if (!orderApplies(session.mode)) return
  const waiting = waitingFor(session.mode, await ctx.deps.repository.requestsOf(session.id), request)
  if (waiting.length) throw ERR_SESSION_OUT_OF_ORDER(`Waiting for: ${waiting.map((r) => r.slot_key).join(', ')}`)
}
