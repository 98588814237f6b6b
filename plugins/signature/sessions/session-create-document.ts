import { randomUUID } from 'node:crypto'
import { z } from 'zod'
import type { PublicUser } from '../../../core/auth/user-repository.ts'
import { ERR_VALIDATION } from '../../../core/http/errors.ts'
import { UUID } from '../../../core/http/uuid.ts'
import { parseInput, type FieldIssue } from '../../../core/http/validate.ts'
import { assertFieldsValid, documentFieldSchema, MAX_DOCUMENT_FIELDS, MAX_DOCUMENT_SIGNERS } from '../documents/document-fields.ts'
import type { PageSize } from '../documents/documents.ts'
import type { DocumentTable, SignLinkTable } from '../documents/documents-tables.ts'
import { ERR_DOCUMENT_NOT_FOUND } from '../errors.ts'
import { sha256Hex } from '../signing/sha256-hex.ts'
import { assertMayCreate, mayReadAny } from './session-access.ts'
import type { DocumentSessionDependencies, SessionContext } from './session-context.ts'
import { sessionEvent } from './session-events.ts'
import { dueAtSchema } from './session-expiry.ts'
import type { RequestField } from './request-fields.ts'
import type { SigningSessionRequestTable, SigningSessionTable } from './session-tables.ts'
import { sessionJson, type SessionJson } from './session-views.ts'
import { compareSigningOrder } from './signing-order.ts'
import { sha256Of, SIGN_LINK_DAYS, signLinkToken } from './sign-link-tokens.ts'
import { assertCreatorWithinLimit, assertInvitationsWithinLimit } from './session-limits.ts'

import { DOCUMENT_TEMPLATE_KEY } from './document-template-key.ts'

const DAY_MS = 86_400_000
const LABELS = { signature: 'Signature', date: 'Date signed', name: 'Name', initials: 'Initials', text: 'Text' } as const

const createDocumentSchema = z.strictObject({
  document: z.string().regex(UUID, 'a document id'),
  mode: z.enum(['sequential', 'parallel']).default('sequential'),
  message: z.string().trim().max(2000).optional(),
  dueAt: dueAtSchema.optional(),
  signers: z.array(z.union([
    z.strictObject({ user: z.string().min(1).max(64) }),
    z.strictObject({ email: z.string().trim().toLowerCase().max(254).pipe(z.email('an e-mail address')), name: z.string().trim().min(1).max(200) }),
  ])).min(1).max(MAX_DOCUMENT_SIGNERS),
  fields: z.array(documentFieldSchema).min(1).max(MAX_DOCUMENT_FIELDS),
})

/**
 * A session over an uploaded document: the fields placed on it, signers who are users or e-mail
 * addresses. Frozen once like a template's record (one empty signature field per signature field,
 * an empty form field per date/name/initials/text field, certified P=2); each external signer's
 * link is written with the session, its token mailed with the invitation.
 */
export async function createDocumentSession(ctx: SessionContext, user: PublicUser | null | undefined, body: unknown, address?: string): Promise<SessionJson> {
  const creator = assertMayCreate(ctx, user)
  const docs = documentDeps(ctx)
  const input = parseInput(createDocumentSchema, body, 'body')
  const document = await docs.documents.find(input.document)
  if (!document || (document.created_by !== creator.id && !mayReadAny(ctx, creator))) throw ERR_DOCUMENT_NOT_FOUND()
  return createOn(ctx, creator, input, document, address)
}

const fromTemplateSchema = z.strictObject({
  template: z.string().min(1).max(120),
  mode: createDocumentSchema.shape.mode,
  message: createDocumentSchema.shape.message,
  dueAt: createDocumentSchema.shape.dueAt,
  signers: createDocumentSchema.shape.signers,
})

/**
 * A session from a document saved as a template (issue 38, item 6): its document and fields, and
 * only the signers to choose, one per role in the template's order. A saved template is the
 * app's, like every registered one: whoever may create sessions may start one from it. Answers
 * null when `key` is no saved document template (the caller tries the registry's templates).
 */
export async function createSessionFromDocumentTemplate(ctx: SessionContext, user: PublicUser | null | undefined, body: { template?: unknown }, address?: string): Promise<SessionJson | null> {
  const creator = assertMayCreate(ctx, user)
  const docs = ctx.deps.documents
  const saved = docs && typeof body.template === 'string' ? await docs.documents.findTemplate(body.template) : undefined
  if (!saved) return null
  const input = parseInput(fromTemplateSchema, body, 'body')
  const roles = JSON.parse(saved.roles) as string[]
  if (input.signers.length !== roles.length) {
    throw ERR_VALIDATION(`body.signers: the template ${JSON.stringify(saved.key)} has ${roles.length} signer(s) (${roles.join(', ')}), ${input.signers.length} given`)
  }
  const document = await docs!.documents.find(saved.document_id)
  if (!document) throw ERR_DOCUMENT_NOT_FOUND()
  const fields = JSON.parse(saved.fields) as CreateInput['fields']
  return createOn(ctx, creator, { ...input, document: document.id, fields }, document, address, saved.key)
}

async function createOn(ctx: SessionContext, creator: PublicUser, input: CreateInput, document: DocumentTable, address: string | undefined, templateKey?: string): Promise<SessionJson> {
  const docs = documentDeps(ctx)
  const pages = JSON.parse(document.pages) as PageSize[]
  assertFieldsValid(input, pages)
  const signers = await resolveSigners(ctx, input.signers)
  const now = ctx.now()
  const dueAt = input.dueAt ?? null
  if (dueAt && Date.parse(dueAt) <= now.getTime()) throw ERR_VALIDATION('body.dueAt: the due date must be in the future')
  await assertCreatorWithinLimit(ctx, creator.id, now)
  await assertInvitationsWithinLimit(ctx, signers.flatMap((s) => (s.email && !s.userId ? [s.email] : [])), now)

  const id = randomUUID()
  const at = now.toISOString()
  const fields = input.fields.map((f, i) => ({
    ...f, id: `f${i + 1}`, name: `${f.type}-${i + 1}`, label: f.label ?? null,
  }))
  const byIndex = signers.map((signer, index) => fields.filter((f) => f.signer === index))
  const source = await ctx.deps.disk.get(document.document_key)
  const frozen = await ctx.deps.pdf.run('freezeDocument', source, {
    fields: fields.filter((f) => f.type === 'signature').map((f) => ({
      name: f.name, page: f.page, x: f.x, y: f.y, width: f.width, height: f.height,
      label: f.label ?? signers[f.signer]!.name,
      // A signer's signature freezes their filled form fields with it.
      locks: byIndex[f.signer]!.filter((g) => g.type !== 'signature').map((g) => g.name),
    })),
    formFields: fields.filter((f) => f.type !== 'signature').map((f) => ({
      name: f.name, page: f.page, x: f.x, y: f.y, width: f.width, height: f.height, label: f.label ?? LABELS[f.type],
    })),
    signer: await ctx.deps.applicationSigner(),
    reason: `Certified for signing: ${document.filename}`,
    signingTime: now,
  })
  const frozenKey = `sessions/${id}/000-frozen.pdf`
  const frozenSha = sha256Hex(frozen)
  const staged = await ctx.deps.disk.stage(frozenKey, frozen)

  const session: SigningSessionTable = {
    id, template_key: DOCUMENT_TEMPLATE_KEY, signable_id: document.id, signable_title: document.filename.slice(0, 500),
    mode: input.mode, status: 'active', created_by: creator.id, frozen_document_key: frozenKey, frozen_sha256: frozenSha,
    current_document_key: frozenKey, current_sha256: frozenSha, revision: 0, created_at: at, updated_at: at, closed_at: null,
    message: input.message || null, due_at: dueAt,
  }
  const requests: SigningSessionRequestTable[] = signers.map((signer, index) => {
    const own: RequestField[] = byIndex[index]!.map((f) => ({ id: f.id, type: f.type, name: f.name, page: f.page, x: f.x, y: f.y, width: f.width, height: f.height, label: f.label }))
    const first = own.find((f) => f.type === 'signature')!
    return {
      id: randomUUID(), session_id: id, slot_key: `signer-${index + 1}`, field_name: first.name, signer_user_id: signer.userId,
      signer_email: signer.userId ? null : signer.email, signer_name: signer.userId ? null : signer.name, fields: JSON.stringify(own), identified_by: null,
      sign_order: index + 1, status: 'pending', page: first.page, x: first.x, y: first.y, width: first.width, height: first.height,
      claim_token: null, claimed_at: null, signature_uuid: null, document_key: null, document_sha256: null, decline_reason: null,
      signed_at: null, declined_at: null, created_at: at, updated_at: at,
    }
  })
  const expiresAt = new Date(Math.min(now.getTime() + SIGN_LINK_DAYS * DAY_MS, dueAt ? Date.parse(dueAt) : Infinity)).toISOString()
  const links: SignLinkTable[] = requests.filter((r) => r.signer_email).map((r) => ({
    request_id: r.id, session_id: id, email: r.signer_email!, token_sha256: sha256Of(signLinkToken(docs.secrets, r.id)), expires_at: expiresAt,
    used_at: null, code_sha256: null, code_expires_at: null, code_attempts: 0, cookie_sha256: null, cookie_expires_at: null, created_at: at,
  }))
  const created = sessionEvent({
    sessionId: id, requestId: null, event: 'created', actor: creator.id, sha256Before: null, sha256After: frozenSha, at,
    detail: `${input.mode}; ${requests.length} signer(s); document ${document.id}${templateKey ? `; template ${templateKey}` : ''}`, address,
  })
  try {
    await ctx.deps.repository.insertSession(session, requests, created, staged, async (tx) => {
      if (links.length) await tx.insertInto('sign_links').values(links).execute()
    })
  } catch (error) {
    // A row never points at a missing file, and a file without rows is removed.
    await staged.discard().catch(() => {})
    throw error
  }
  return sessionJson(ctx, session, [...requests].sort(compareSigningOrder))
}

export function documentDeps(ctx: SessionContext): DocumentSessionDependencies {
  const docs = ctx.deps.documents
  if (!docs) throw new Error('Document sessions need SessionManagerDependencies.documents')
  return docs
}

type CreateInput = z.output<typeof createDocumentSchema>

interface ResolvedSigner { userId: string | null; email: string | null; name: string }

async function resolveSigners(ctx: SessionContext, given: CreateInput['signers']): Promise<ResolvedSigner[]> {
  const issues: FieldIssue[] = []
  const seen = new Set<string>()
  const resolved: ResolvedSigner[] = []
  for (const [index, entry] of given.entries()) {
    if ('user' in entry) {
      const found = await ctx.deps.users.findById(entry.user)
      if (!found) { issues.push({ path: `body.signers.${index}.user`, message: `no user ${JSON.stringify(entry.user)}` }); continue }
      if (seen.has(`user:${found.id}`)) issues.push({ path: `body.signers.${index}.user`, message: 'listed twice' })
      seen.add(`user:${found.id}`)
      resolved.push({ userId: found.id, email: found.email ?? null, name: found.name })
    } else {
      if (seen.has(`email:${entry.email}`)) issues.push({ path: `body.signers.${index}.email`, message: 'listed twice' })
      seen.add(`email:${entry.email}`)
      resolved.push({ userId: null, email: entry.email, name: entry.name })
    }
  }
  if (issues.length) throw ERR_VALIDATION(issues.map((i) => `${i.path}: ${i.message}`).join('; '), { details: { issues } })
  return resolved
}

