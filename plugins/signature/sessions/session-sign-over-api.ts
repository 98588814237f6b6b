import { z } from 'zod'
import { requireUser } from '../../../core/auth/require-user.ts'
import type { PublicUser } from '../../../core/auth/user-repository.ts'
import { UUID } from '../../../core/http/uuid.ts'
import { parseInput } from '../../../core/http/validate.ts'
import { ERR_SESSION_REQUEST_NOT_FOUND } from '../errors.ts'
import type { SessionFinalizeResult } from '../signing/session-finalizer.ts'
import type { SessionContext } from './session-context.ts'
import { signRequest } from './session-sign.ts'

const bodySchema = z.strictObject({
  signature: z.string().regex(UUID, 'the uuid of one of your signatures'),
  /** Initials and text fields of this signer, by field id. */
  fields: z.record(z.string().max(16), z.string().trim().min(1).max(200)).optional(),
})

/**
 * An account signer signs their request over JSON: a document session has no template signer
 * page. The same rules as the signer page's finalize (signRequest): theirs, in turn, once.
 */
export async function signOverApi(ctx: SessionContext, user: PublicUser | null | undefined, sessionId: string, requestId: string, body: unknown, client: { address?: string; userAgent?: string }): Promise<SessionFinalizeResult> {
  const signer = requireUser(user)
  const input = parseInput(bodySchema, body, 'body')
  const request = UUID.test(requestId) ? await ctx.deps.repository.findRequest(requestId) : undefined
  const session = request ? await ctx.deps.repository.findSession(request.session_id) : undefined
  if (!request || !session || session.id !== sessionId) throw ERR_SESSION_REQUEST_NOT_FOUND()
  return signRequest(ctx, signer, {
    templateKey: session.template_key, requestId, signatureUuid: input.signature, address: client.address, userAgent: client.userAgent,
    ...(input.fields ? { values: input.fields } : {}),
  })
}
