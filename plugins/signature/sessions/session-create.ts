import { randomUUID } from 'node:crypto'
import { readFile } from 'node:fs/promises'
import { z } from 'zod'
import type { PublicUser } from '../../../core/auth/user-repository.ts'
import { parseInput } from '../../../core/http/validate.ts'
import type { RegisteredTemplate } from '../contracts/pdf-template.ts'
import { placementFor } from '../contracts/placement.ts'
import { ERR_SESSION_SIGNER_NOT_SIGNATORY, ERR_SESSION_SIGNER_REPEATED, ERR_SESSION_SIGNERS_INVALID, ERR_SIGNABLE_NOT_FOUND } from '../errors.ts'
import { requireTemplate } from '../registry/require-template.ts'
import { maySeeRecord } from '../signables/record-visibility.ts'
import { signatoriesOf } from '../signables/signatories.ts'
import { sessionSignerProblems } from '../signables/slot-signers.ts'
import { sha256Hex } from '../signing/sha256-hex.ts'
import { assertMayCreate } from './session-access.ts'
import type { SessionContext } from './session-context.ts'
import { sessionEvent } from './session-events.ts'
import type { SigningSessionRequestTable, SigningSessionTable } from './session-tables.ts'
import { sessionJson, type SessionJson } from './session-views.ts'
import { compareSigningOrder } from './signing-order.ts'
import { dueAtSchema } from './session-expiry.ts'
import { createDocumentSession, createSessionFromDocumentTemplate } from './session-create-document.ts'
import { assertCreatorWithinLimit } from './session-limits.ts'
import { ERR_VALIDATION } from '../../../core/http/errors.ts'

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
  /** Words for the signers, in their invitation and on the session page. */
  message: z.string().trim().max(2000).optional(),
  /** A day (YYYY-MM-DD, the end of it, UTC) or an ISO instant, in the future; after it nobody can sign. */
  dueAt: dueAtSchema.optional(),
}).strict()

/**
 * Creates a session: freezes the record's PDF once (certified, one empty field per slot) and
 * writes the session, its requests and the 'created' event together.
 */
export async function createSession(ctx: SessionContext, user: PublicUser | null | undefined, body: unknown, address?: string): Promise<SessionJson> {
  // An uploaded document with its fields (issue 38), or a template's record.
  if (body && typeof body === 'object' && 'document' in body) return createDocumentSession(ctx, user, body, address)
  // A document saved as a template takes signers only (no record).
  if (body && typeof body === 'object' && 'template' in body && !('signable' in body)) {
    const fromTemplate = await createSessionFromDocumentTemplate(ctx, user, body, address)
    if (fromTemplate) return fromTemplate
  }
  const creator = assertMayCreate(ctx, user)
  await assertCreatorWithinLimit(ctx, creator.id, ctx.now())
  const { deps } = ctx
  const input = parseInput(createSchema, body, 'body')
  const template = requireTemplate(deps.registry, input.template)
  const record = await deps.source.find(input.template, input.signable)
  // A record the creator may not see is answered exactly like one that does not exist.
  if (!record || !maySeeRecord(deps.policy, template, record, creator)) {
    throw ERR_SIGNABLE_NOT_FOUND(`No record ${JSON.stringify(input.signable)} of template ${JSON.stringify(input.template)}`)
  }
  const signers = await resolveSigners(ctx, template, record, input.signers)
  const dueAt = input.dueAt ?? null
  if (dueAt && Date.parse(dueAt) <= ctx.now().getTime()) throw ERR_VALIDATION('body.dueAt: the due date must be in the future')

  const id = randomUUID()
  const at = ctx.now().toISOString()
  const fields = await Promise.all(signers.map(async (signer) => {
    const slot = signer.slot
    const placement = placementFor(slot, await deps.slots.find(template.key(), slot.key))
    return { ...signer, fieldName: slot.key.replace(/\./g, '_'), placement }
  }))

  const source = await readFile(await template.renderFor(record))
  // freezeDocument loads and saves the whole file once (normalizing it: cross-reference streams
  // and object streams become a classic table), creates every field and certifies that revision.
  const frozen = await deps.pdf.run('freezeDocument', source, {
    fields: fields.map((f) => ({ name: f.fieldName, label: f.slot.label, ...f.placement })),
    signer: await deps.applicationSigner(),
    reason: `Certified for signing: ${record.getSignableTitle()}`,
    signingTime: new Date(at),
  })
  const frozenKey = `sessions/${id}/000-frozen.pdf`
  const frozenSha = sha256Hex(frozen)
  const staged = await deps.disk.stage(frozenKey, frozen)

  const session: SigningSessionTable = {
    id, template_key: template.key(), signable_id: record.getSignableId(), signable_title: record.getSignableTitle().slice(0, 500),
    mode: input.mode, status: 'active', created_by: creator.id, frozen_document_key: frozenKey, frozen_sha256: frozenSha,
    current_document_key: frozenKey, current_sha256: frozenSha, revision: 0, created_at: at, updated_at: at, closed_at: null,
    message: input.message || null, due_at: dueAt,
  }
  const requests: SigningSessionRequestTable[] = fields.map((f) => ({
    id: randomUUID(), session_id: id, slot_key: f.slot.key, field_name: f.fieldName, signer_user_id: f.userId, sign_order: f.order,
    status: 'pending', page: f.placement.page, x: f.placement.x, y: f.placement.y, width: f.placement.width, height: f.placement.height,
    claim_token: null, claimed_at: null, signature_uuid: null, document_key: null, document_sha256: null, decline_reason: null,
    signed_at: null, declined_at: null, created_at: at, updated_at: at,
  }))
  const created = sessionEvent({
    sessionId: id, requestId: null, event: 'created', actor: creator.id, sha256Before: null, sha256After: frozenSha, at,
    detail: `${input.mode}; ${requests.length} signer(s)`, address,
  })
  try {
    await deps.repository.insertSession(session, requests, created, staged)
  } catch (error) {
    // A row never points at a missing file, and a file without rows is removed.
    await staged.discard().catch(() => {})
    throw error
  }
  // The same order as every later read.
  return sessionJson(ctx, session, [...requests].sort(compareSigningOrder))
}

/** Who signs which slot, in which order: the given list, else every required or bound slot. */
async function resolveSigners(ctx: SessionContext, template: RegisteredTemplate, record: unknown, given: z.output<typeof createSchema>['signers']) {
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
    if (!(await ctx.deps.users.findById(userId))) { problems.push(`signers.${index}.user: no user ${JSON.stringify(userId)}`); continue }
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
