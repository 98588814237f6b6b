import type { Placement } from '../contracts/placement.ts'
import { requireUser } from '../../../core/auth/require-user.ts'
import { ERR_ACCESS_DENIED } from '../../../core/http/errors.ts'
import type { PublicUser } from '../../../core/auth/user-repository.ts'
import { mayReadAny, visibleSession } from './session-access.ts'
import type { SessionContext } from './session-context.ts'
import { sessionEventJson, type SessionEventJson } from './session-events.ts'
import type { SigningSessionRequestTable, SigningSessionTable } from './session-tables.ts'
import { isTurnOf, orderApplies } from './signing-order.ts'
import { isExpired } from './session-expiry.ts'
import { NEW_SIGNATURE_UUID } from '../library/new-signature.ts'
import { requestFields, type RequestField } from './request-fields.ts'
import { DOCUMENT_TEMPLATE_KEY } from './document-template-key.ts'

// What the API and the inbox show of sessions. Rows become JSON here and nowhere else, so the
// API's answer, the inbox page and its JSON cannot drift apart.

export interface SessionRequestJson {
  id: string
  slot: string
  /** The slot's label in its template (the key when the template is gone): what people read. */
  slotLabel: string
  field: string
  /** id null: a signer by e-mail address, without an account. */
  signer: { id: string | null; name: string | null; email: string | null }
  /** How the signer proved who they are when signing: 'account' | 'email-code'; null before. */
  identifiedBy: string | null
  /** A document session's fields of this signer (date, name, ...); [] for a template's session. */
  fields: Array<Omit<RequestField, 'name'>>
  order: number
  status: string
  placement: Placement
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
  message: string | null
  dueAt: string | null
  /** Active but past its due date: nobody can sign it any more. */
  expired: boolean
  documentUrl: string
  requests: SessionRequestJson[]
  events?: SessionEventJson[]
}

export interface InboxItem {
  requestId: string
  sessionId: string
  template: string
  signable: { id: string; title: string }
  slot: string
  slotLabel: string
  mode: string
  status: string
  /** False while earlier signers of a sequential session have not signed. */
  yourTurn: boolean
  createdAt: string
  signerUrl: string | null
  documentUrl: string
}

type MaybeUser = PublicUser | null | undefined

const documentUrl = (sessionId: string) => `/api/signing-sessions/${sessionId}/document`

/** A slot's label from its template; the key itself when the template or slot is no longer registered. */
export function slotLabelOf(ctx: SessionContext, templateKey: string, slotKey: string): string {
  // A document session's slots are its signers in order: "signer-2" reads "Signer 2".
  if (templateKey === DOCUMENT_TEMPLATE_KEY) return slotKey.replace(/^signer-(\d+)$/, 'Signer $1')
  return ctx.deps.registry.find(templateKey)?.slots().find((slot) => slot.key === slotKey)?.label ?? slotKey
}

/**
 * The signer page opened on this request with the signer's primary (else first) active signature;
 * without one, the page that lets them draw or type a signature first (NEW_SIGNATURE_UUID).
 */
export async function signerUrlFor(ctx: SessionContext, templateKey: string, requestId: string, signerUserId: string | null): Promise<string | null> {
  // A signer without an account signs from the link mailed to them, never from a page of the app.
  if (!signerUserId) return null
  const active = (await ctx.deps.library.list(signerUserId)).filter((s) => s.status === 'active')
  const chosen = active.find((s) => s.primary) ?? active[0]
  return ctx.signerUrl({ templateKey, signatureUuid: chosen?.uuid ?? NEW_SIGNATURE_UUID, requestId })
}

export async function sessionJson(ctx: SessionContext, session: SigningSessionTable, requests: SigningSessionRequestTable[]): Promise<SessionJson> {
  const people = new Map<string, { name: string | null; email: string | null }>()
  const urls = new Map<string, string | null>()
  for (const r of requests) {
    if (r.signer_user_id && !people.has(r.signer_user_id)) {
      const found = await ctx.deps.users.findById(r.signer_user_id)
      people.set(r.signer_user_id, { name: found?.name ?? null, email: found?.email ?? null })
    }
    urls.set(r.id, r.status === 'pending' && session.status === 'active' && !isExpired(session, ctx.now()) ? await signerUrlFor(ctx, session.template_key, r.id, r.signer_user_id) : null)
  }
  return {
    id: session.id, template: session.template_key, signable: { id: session.signable_id, title: session.signable_title },
    mode: session.mode, status: session.status, createdBy: session.created_by, createdAt: session.created_at, updatedAt: session.updated_at,
    closedAt: session.closed_at, frozenSha256: session.frozen_sha256, currentSha256: session.current_sha256, revision: Number(session.revision),
    message: session.message ?? null, dueAt: session.due_at ?? null, expired: isExpired(session, ctx.now()),
    documentUrl: documentUrl(session.id),
    requests: requests.map((r) => ({
      id: r.id, slot: r.slot_key, slotLabel: slotLabelOf(ctx, session.template_key, r.slot_key), field: r.field_name,
      signer: r.signer_user_id ? { id: r.signer_user_id, ...(people.get(r.signer_user_id) ?? { name: null, email: null }) } : { id: null, name: r.signer_name ?? null, email: r.signer_email ?? null },
      identifiedBy: r.identified_by ?? null,
      fields: requestFields(r).map(({ name: _name, ...field }) => field),
      order: Number(r.sign_order), status: r.status,
      placement: { page: Number(r.page), x: Number(r.x), y: Number(r.y), width: Number(r.width), height: Number(r.height) },
      signatureUuid: r.signature_uuid, documentSha256: r.document_sha256, signedAt: r.signed_at, declinedAt: r.declined_at,
      declineReason: r.decline_reason, signerUrl: urls.get(r.id) ?? null,
    })),
  }
}

/** One session with its audit trail, for whoever may see it. */
export async function sessionDetail(ctx: SessionContext, user: MaybeUser, sessionId: string): Promise<SessionJson> {
  const { session, requests } = await visibleSession(ctx, user, sessionId)
  const events = await ctx.deps.repository.eventsOf(session.id)
  return { ...(await sessionJson(ctx, session, requests)), events: events.map(sessionEventJson) }
}

/** The current revision's bytes (the frozen file before anyone signed). */
export async function sessionDocument(ctx: SessionContext, user: MaybeUser, sessionId: string): Promise<{ bytes: Buffer; sha256: string; fileName: string }> {
  const { session } = await visibleSession(ctx, user, sessionId)
  const bytes = await ctx.deps.disk.get(session.current_document_key)
  return { bytes, sha256: session.current_sha256, fileName: `${session.template_key}-${session.signable_id}-${session.status}.pdf`.replace(/[^A-Za-z0-9._-]/g, '_') }
}

/** Where the current revision lies on disk, for whoever may see the session (its page images). */
export async function sessionDocumentPath(ctx: SessionContext, user: MaybeUser, sessionId: string): Promise<string> {
  const { session } = await visibleSession(ctx, user, sessionId)
  return ctx.deps.disk.localPath(session.current_document_key)
}

/** Sessions the user created or signs in (all of them with read-any). */
export async function sessionList(ctx: SessionContext, user: MaybeUser): Promise<SessionJson[]> {
  const viewer = requireUser(user)
  const { repository } = ctx.deps
  const sessions = await repository.listSessions(mayReadAny(ctx, viewer) ? {} : { userId: viewer.id })
  return Promise.all(sessions.map(async (s) => sessionJson(ctx, s, await repository.requestsOf(s.id))))
}

/**
 * Every session in progress (active, not past its due date) for a user who may read any session:
 * how many, and the newest `limit`. Counted in SQL, not listed and filtered.
 */
export async function sessionsInProgress(ctx: SessionContext, user: MaybeUser, limit: number) {
  const viewer = requireUser(user)
  if (!mayReadAny(ctx, viewer)) throw ERR_ACCESS_DENIED('Only those who may read every session see the sessions in progress')
  const now = ctx.now()
  // The dashboard asks on every visit: kept until a session changes or the first due date passes.
  const { total, rows } = await ctx.kept.inProgress.of(String(limit), now, async () => {
    const listed = await ctx.deps.repository.inProgress(now.toISOString(), limit)
    return { value: listed, until: listed.until }
  })
  return { total, rows }
}

/** The user's requests in active sessions, expired ones included: only the session tables decide them, not the clock. */
function pendingOf(ctx: SessionContext, userId: string, now: Date) {
  return ctx.kept.pending.of(userId, now, async () => ({ value: await ctx.deps.repository.pendingFor(userId), until: null }))
}

/** What waits for the user: their pending requests in active sessions. */
export async function inboxOf(ctx: SessionContext, user: MaybeUser): Promise<InboxItem[]> {
  const signer = requireUser(user)
  const now = ctx.now()
  const rows = (await pendingOf(ctx, signer.id, now)).filter((row) => !isExpired({ status: 'active', due_at: row.due_at }, now))
  const result: InboxItem[] = []
  for (const row of rows) {
    const yourTurn = await isYourTurn(ctx, row)
    result.push({
      requestId: row.id, sessionId: row.session_id, template: row.template_key, signable: { id: row.signable_id, title: row.signable_title },
      slot: row.slot_key, slotLabel: slotLabelOf(ctx, row.template_key, row.slot_key), mode: row.mode, status: row.status, yourTurn, createdAt: row.session_created_at,
      signerUrl: await signerUrlFor(ctx, row.template_key, row.id, signer.id), documentUrl: documentUrl(row.session_id),
    })
  }
  return result
}

type PendingRow = Awaited<ReturnType<SessionContext['deps']['repository']['pendingFor']>>[number]

/** The inbox's "your turn" and the top bar's count: the one signing-order rule. */
async function isYourTurn(ctx: SessionContext, row: PendingRow): Promise<boolean> {
  return !orderApplies(row.mode) || isTurnOf(row.mode, await ctx.deps.repository.requestsOf(row.session_id), row)
}

/** How many requests wait for the user and may be signed now (the top bar's Inbox count). */
export async function waitingCountOf(ctx: SessionContext, user: MaybeUser): Promise<number> {
  const signer = requireUser(user)
  const now = ctx.now()
  return ctx.waitingCounts.of(signer.id, now, async () => {
    let count = 0
    let until: string | null = null
    // The inbox's own kept rows: a visit after a write reads them once for both.
    for (const row of await pendingOf(ctx, signer.id, now)) {
      if (isExpired({ status: 'active', due_at: row.due_at }, now)) continue
      if (row.due_at && (until === null || row.due_at < until)) until = row.due_at
      if (await isYourTurn(ctx, row)) count++
    }
    return { value: count, until }
  })
}
