import { readFile } from 'node:fs/promises'
import { LRUCache } from 'lru-cache'
import { z } from 'zod'
import type { Policy } from '../../../core/access/policy.ts'
import type { PublicUser } from '../../../core/auth/user-repository.ts'
import { lockForTransaction } from '../../../core/db/transaction-lock.ts'
import { ERR_NOT_FOUND, ERR_NOT_IMPLEMENTED, ERR_VALIDATION } from '../../../core/http/errors.ts'
import { parseInput } from '../../../core/http/validate.ts'
import { UUID } from '../../../core/http/uuid.ts'
import { placementFor } from '../contracts/placement.ts'
import type { RegisteredTemplate } from '../contracts/pdf-template.ts'
import { isSignable, type Signable } from '../contracts/signable.ts'
import type { SignableSource } from '../contracts/signable-source.ts'
import { pageSizesOf, type PageSource } from '../rendering/page-source.ts'
import { ERR_RECORD_NOT_SIGNABLE } from '../errors.ts'
import type { LibrarySignature } from '../library/signature-library.ts'
import { requireTemplate } from '../registry/require-template.ts'
import { maySeeRecord } from '../signables/record-visibility.ts'
import { assertSignerPageMaySign, nothingToSignError, signerPageSlots } from '../signables/signer-page-slots.ts'
import { latestBySlot, signedVersionsOf } from '../signables/signed-versions.ts'
import type { SignatureTables } from '../database/schema.ts'
import type { Kysely } from 'kysely'
import type { SignatureServices } from '../signature-services-type.ts'
import type { SessionRequestView } from '../signing/session-finalizer.ts'
import { normalizePlacements, slotPlacementSchema } from '../signing/placements.ts'
import { SignatureManager, type StampPlacement } from '../signing/signature-manager.ts'

/** The bottom strip: the active signature plus at most this many others. */
export const OTHER_SIGNATURES_SHOWN = 12

const id = z.string().trim().min(1).max(120)
const uuid = z.string().regex(UUID, 'a signature uuid')

// No signature: a first-time signer sees the document before making one (the page asks at the first field).
export const metaQuerySchema = z.strictObject({ signature: uuid.optional(), signable: id.optional(), request: id.optional() })

export const finalizeBodySchema = z.strictObject({
  signature: uuid,
  placements: z.array(slotPlacementSchema).max(50),
  signable: id.optional(),
  request: id.optional(),
  /** Required when a requested slot of the record is signed already: the new signing is a new version. */
  reason: z.string().trim().min(3).max(1000).optional(),
})

export type SignerMode = 'acknowledgement' | 'production' | 'session'

type TargetQuery = { signable?: string | undefined; request?: string | undefined }

interface Target {
  mode: SignerMode
  template: RegisteredTemplate
  source: PageSource
  record?: Signable
  request?: SessionRequestView
  /** The slots the user may fill here; null: any (acknowledgement mode). */
  slots: string[] | null
}

/** Where the signer page finds what it just signed: the download and the signed pages' images. */
function signedDocumentUrls(signatureUuid: string) {
  return {
    download_url: `/api/signatures/${signatureUuid}/document`,
    // `/pages/0` is the placeholder the page swaps for a page number, as with config.pageImageUrl.
    page_image_url: `/api/signatures/${signatureUuid}/pages/0`,
  }
}

export interface FinalizeAnswer {
  status: 'acknowledged' | 'signed'
  [key: string]: unknown
}

/**
 * What the signer page's two calls do, without HTTP: meta (template, pages, slots, the user's
 * signatures) and finalize in its three modes — acknowledgement (no record: validate and echo),
 * production (a record: render, stamp, sign, store) and session (a request of a signing session).
 */
export class SignerService {
  readonly manager: SignatureManager
  // The page loads meta and then each page image within seconds: render the record once for all of
  // them (renderFor writes a fresh file every time, which would also miss the page-image cache).
  // Finalize always renders afresh: what is signed is the record as it is now.
  readonly #previews = new LRUCache<string, Promise<string>>({ max: 200, ttl: 60_000 })

  constructor(private readonly services: SignatureServices, private readonly records: SignableSource | undefined, private readonly policy: Policy) {
    this.manager = new SignatureManager({ repository: services.signatures, disk: services.disk, pdf: services.pdf, longTermValidation: services.ltv, onSigned: () => services.metrics.signatureMade('single') })
  }

  template(templateKey: string): RegisteredTemplate {
    return requireTemplate(this.services.registry, templateKey)
  }

  /** The user's own active library signature; anything else is the same 404. */
  async activeSignature(user: PublicUser, signatureUuid: string): Promise<LibrarySignature> {
    const signature = await this.services.library.get(user.id, signatureUuid)
    if (signature.status !== 'active') throw ERR_NOT_FOUND('Signature not found or no longer active')
    return signature
  }

  /**
   * The record by find() on the template's source, if the user may see it (the visibility of
   * GET /api/signables/:key): 404 when missing or not theirs to see, alike; 422 when not Signable.
   */
  async record(template: RegisteredTemplate, recordId: string, user: PublicUser): Promise<Signable> {
    const record = await this.records?.find(template.key(), recordId)
    if (!record || !maySeeRecord(this.policy, template, record, user)) throw ERR_NOT_FOUND(`No record ${JSON.stringify(recordId)} of ${template.key()}`)
    if (!isSignable(record)) throw ERR_RECORD_NOT_SIGNABLE(`The record ${JSON.stringify(recordId)} does not implement Signable`)
    return record
  }

  /** Slots of the record this user may sign on the signer page now (signables/signer-page-slots.ts). */
  async slotsFor(template: RegisteredTemplate, record: Signable, user: PublicUser): Promise<string[]> {
    return signerPageSlots(template, record, user.id, await signedVersionsOf(this.services.signatures.db, template.key(), record.getSignableId()))
  }

  /**
   * A record the user may see and has a slot to sign on here (signables/signer-page-slots.ts, the
   * rule My signatures hides by); 403 when none is theirs, 409 when theirs were signed in a session.
   */
  async #recordToSign(template: RegisteredTemplate, recordId: string, user: PublicUser): Promise<{ record: Signable; slots: string[] }> {
    const record = await this.record(template, recordId, user)
    const versions = await signedVersionsOf(this.services.signatures.db, template.key(), record.getSignableId())
    const slots = signerPageSlots(template, record, user.id, versions)
    if (slots.length === 0) throw nothingToSignError(template, record, user.id, versions)
    return { record, slots }
  }

  /**
   * The signer page's own check, refusing at once what meta would refuse, without rendering; the
   * one place a session request's opening goes into the audit trail (meta and page images follow
   * the page and are part of the same opening). `address` is the caller's request.ip.
   */
  async open(user: PublicUser, templateKey: string, query: TargetQuery, address?: string): Promise<{ recordTitle: string | null; signedApart: string[] }> {
    const template = this.template(templateKey)
    if (query.request !== undefined) {
      const request = await this.#sessions().view(user, template.key(), query.request, address, { recordOpening: true })
      return { recordTitle: request.signableTitle ?? null, signedApart: [] }
    }
    if (query.signable !== undefined) {
      const { record, slots } = await this.#recordToSign(template, query.signable, user)
      // The signer page signs a copy of the record's own: the other slots' signatures (if any)
      // go into other copies. Said before signing; a session is the way to one document.
      const signedApart = template.slots().filter((slot) => !slots.includes(slot.key)).map((slot) => slot.label)
      return { recordTitle: record.getSignableTitle(), signedApart }
    }
    return { recordTitle: null, signedApart: [] }
  }

  #sessions() {
    const sessions = this.services.sessions
    if (!sessions) throw ERR_NOT_IMPLEMENTED('Signing sessions are not available yet')
    return sessions
  }

  #preview(templateKey: string, record: Signable): Promise<string> {
    const key = `${templateKey}\0${record.getSignableId()}`
    let pending = this.#previews.get(key)
    if (!pending) {
      pending = record.getSignablePdfPath()
      pending.catch(() => this.#previews.delete(key))
      this.#previews.set(key, pending)
    }
    return pending
  }

  /** What meta and the page images show: the user may see it, and may sign some of it. */
  async target(user: PublicUser, templateKey: string, query: TargetQuery): Promise<Target> {
    const template = this.template(templateKey)
    if (query.request !== undefined) {
      const request = await this.#sessions().view(user, templateKey, query.request, undefined, { recordOpening: false })
      return { mode: 'session', template, source: { pdfPath: request.documentPath }, request, slots: [request.slotKey] }
    }
    if (query.signable !== undefined) {
      const { record, slots } = await this.#recordToSign(template, query.signable, user)
      return { mode: 'production', template, source: { pdfPath: await this.#preview(templateKey, record) }, record, slots }
    }
    return { mode: 'acknowledgement', template, source: { template }, slots: null }
  }

  async meta(user: PublicUser, templateKey: string, rawQuery: unknown) {
    const query = parseInput(metaQuerySchema, rawQuery, 'query')
    const active = query.signature === undefined ? null : await this.activeSignature(user, query.signature)
    const target = await this.target(user, templateKey, query)
    const { template } = target
    const pages = (await pageSizesOf(target.source, this.services.pageImages)).map((p, i) => ({ page: p.page ?? i + 1, width: p.width, height: p.height }))
    const saved = new Map((await this.services.slots.forTemplate(template.key())).map((s) => [s.slotKey, s]))
    const allowed = target.slots
    // A slot of the record signed before: the page asks why before signing it again.
    const signedBefore = target.record ? latestBySlot(await signedVersionsOf(this.services.signatures.db, template.key(), target.record.getSignableId())) : new Map()
    const slots = template.slots()
      .filter((slot) => !allowed || allowed.includes(slot.key))
      .map((slot) => {
        const row = saved.get(slot.key)
        const before = signedBefore.get(slot.key)
        return {
          key: slot.key, label: slot.label, required: slot.required, role: slot.role ?? null, saved: Boolean(row), placement: placementFor(slot, row),
          signedBefore: before ? { at: before.signedAt, version: before.version } : null,
        }
      })
    const library = (await this.services.library.list(user.id)).filter((s) => s.status === 'active')
    const others = library.filter((s) => s.uuid !== active?.uuid).sort((a, b) => Number(b.primary) - Number(a.primary)).slice(0, OTHER_SIGNATURES_SHOWN)
    const strip = [...(active ? [active] : []), ...others].map((s) => ({ uuid: s.uuid, label: s.label, primary: s.primary, active: s.uuid === active?.uuid, image: `/api/signatures/${s.uuid}/image` }))
    return {
      mode: target.mode,
      template: { key: template.key(), label: template.label() },
      record: target.record ? { id: target.record.getSignableId(), title: target.record.getSignableTitle() } : null,
      request: target.request ? { id: query.request, status: target.request.status, sessionId: target.request.sessionId, slot: target.request.slotKey } : null,
      pages,
      slots,
      signatures: strip,
    }
  }

  /** `address` is the caller's request.ip: a session's audit trail records it. */
  async finalize(user: PublicUser, templateKey: string, rawBody: unknown, address?: string): Promise<FinalizeAnswer> {
    const body = parseInput(finalizeBodySchema, rawBody, 'body')
    const template = this.template(templateKey)
    if (body.request !== undefined) {
      // The session fixes the field and its placement; the session manager enforces ownership and order.
      const signed = await this.#sessions().finalize(user, { templateKey: template.key(), requestId: body.request, signatureUuid: body.signature, address })
      return { ...signed, ...signedDocumentUrls(signed.signature_uuid) }
    }
    if (body.signable === undefined) {
      await this.activeSignature(user, body.signature)
      const pages = await pageSizesOf({ template }, this.services.pageImages)
      return { status: 'acknowledged', placements: normalizePlacements(body.placements, template.slots(), pages) }
    }
    const material = await this.services.library.signingMaterial(user.id, body.signature)
    const record = await this.record(template, body.signable, user)
    if (body.placements.length === 0) throw ERR_VALIDATION('body.placements: place at least one slot before finishing')
    const slotKeys = body.placements.map((p) => p.slot)
    // The rules read the record's signings once: who signed which slot, when, and where.
    const assertRules = async (db: Kysely<SignatureTables>) => {
      const versions = await signedVersionsOf(db, template.key(), record.getSignableId())
      assertSignerPageMaySign(template, record, user.id, versions, slotKeys, body.reason)
    }
    // Refused before the work of signing; checked again under the lock, where it cannot race.
    await assertRules(this.services.signatures.db)
    const pdfPath = await record.getSignablePdfPath()
    const pages = await this.services.pageImages.pages(pdfPath)
    const placements: StampPlacement[] = normalizePlacements(body.placements, template.slots(), pages)
    const signed = await this.manager.sign({
      pdf: await readFile(pdfPath),
      material,
      subject: { type: template.key(), id: record.getSignableId(), templateKey: template.key(), title: record.getSignableTitle() },
      placements,
      // Checked again where the rows are written, under a lock per (signer, record): two finalizes
      // at once for two slots would otherwise both pass the check above before either stored.
      guard: async (tx) => {
        await lockForTransaction(this.services.database.engine, tx, JSON.stringify(['signer-slots', user.id, template.key(), record.getSignableId()]))
        await assertRules(tx)
      },
      resignReason: body.reason,
    })
    return {
      status: 'signed',
      signature_uuid: signed.uuid,
      signed_document_path: signed.documentKey,
      signed_at: signed.signedAt,
      ...signedDocumentUrls(signed.uuid),
      placements,
    }
  }
}
