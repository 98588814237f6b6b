import { assertPermission } from '../../../core/access/assert-permission.ts'
import { requireUser } from '../../../core/auth/require-user.ts'
import type { PublicUser } from '../../../core/auth/user-repository.ts'
import { ERR_ACCESS_DENIED } from '../../../core/http/errors.ts'
import { UUID } from '../../../core/http/uuid.ts'
import { ERR_SESSION_NOT_FOUND, ERR_SESSION_REQUEST_NOT_FOUND, ERR_SESSION_REQUEST_NOT_YOURS } from '../errors.ts'
import { SESSION_PERMISSION } from '../permissions.ts'
import type { SessionContext } from './session-context.ts'
import type { SigningSessionTable } from './session-tables.ts'

// Who may see a session and act on it. Every entry point (API, inbox, signer page) goes through
// these, so a rule tightened here holds everywhere at once.

type MaybeUser = PublicUser | null | undefined

export function assertMayCreate(ctx: SessionContext, user: MaybeUser): PublicUser {
  const creator = requireUser(user)
  assertPermission(ctx.deps.policy, creator, SESSION_PERMISSION.create)
  return creator
}

/** Whether the user sees every session, not only the ones they created or sign in. */
export function mayReadAny(ctx: SessionContext, user: PublicUser): boolean {
  return ctx.deps.policy.can(user.role, SESSION_PERMISSION.readAny)
}

/** The session with its requests, for its creator, its signers and read-any; 404 for anyone else. */
export async function visibleSession(ctx: SessionContext, user: MaybeUser, sessionId: string) {
  const viewer = requireUser(user)
  const { repository } = ctx.deps
  const session = UUID.test(sessionId) ? await repository.findSession(sessionId) : undefined
  if (!session) throw ERR_SESSION_NOT_FOUND()
  const requests = await repository.requestsOf(session.id)
  const allowed = session.created_by === viewer.id || requests.some((r) => r.signer_user_id === viewer.id) || mayReadAny(ctx, viewer)
  // Someone with no part in a session learns nothing about it, not even that it exists.
  if (!allowed) throw ERR_SESSION_NOT_FOUND()
  return { user: viewer, session, requests }
}

/** The cancel rule as a question: the session page hides its Cancel exactly when cancel refuses. */
export function mayCancelSession(ctx: SessionContext, user: PublicUser, createdBy: string): boolean {
  return createdBy === user.id || ctx.deps.policy.can(user.role, SESSION_PERMISSION.cancelAny)
}

/** A creator may always cancel their own session; someone else's needs signing-sessions:cancel. */
export function assertMayCancel(ctx: SessionContext, user: PublicUser, session: SigningSessionTable): void {
  if (!mayCancelSession(ctx, user, session.created_by)) {
    throw ERR_ACCESS_DENIED('Only the creator of a session (or a role with signing-sessions:cancel) may cancel it')
  }
}

/** A request of this template's session addressed to the user: 404 unknown, 403 someone else's. */
export async function ownRequest(ctx: SessionContext, user: MaybeUser, templateKey: string, requestId: string) {
  const signer = requireUser(user)
  const { repository } = ctx.deps
  const request = UUID.test(requestId) ? await repository.findRequest(requestId) : undefined
  const session = request ? await repository.findSession(request.session_id) : undefined
  if (!request || !session || session.template_key !== templateKey) throw ERR_SESSION_REQUEST_NOT_FOUND()
  if (request.signer_user_id !== signer.id) throw ERR_SESSION_REQUEST_NOT_YOURS()
  return { session, request }
}
