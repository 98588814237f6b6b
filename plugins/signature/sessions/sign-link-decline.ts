import { parseInput } from '../../../core/http/validate.ts'
import type { SessionContext } from './session-context.ts'
import { declineAs, declineSchema } from './session-end.ts'
import { verified, type Client } from './sign-links.ts'

export interface SignLinkDeclined {
  status: 'declined'
  declined_at: string
  session: { id: string; status: string }
  request: { id: string; status: string }
}

/**
 * An external signer refuses, with a reason, as an account signer can (session-end.ts): the link
 * must be opened by its code's cookie; the request and its session end as declined, the history
 * says so with the signer's address and browser, and everyone else is told. The link is then
 * spent (its request is no longer pending).
 */
export async function declineSignLink(ctx: SessionContext, token: string, cookie: string | undefined, body: unknown, client: Client): Promise<SignLinkDeclined> {
  const { reason } = parseInput(declineSchema, body ?? {}, 'body')
  const { session, request } = await verified(ctx, token, cookie)
  await declineAs(ctx, session, request, reason, { actor: null, address: client.address, userAgent: client.userAgent })
  const after = await ctx.deps.repository.findRequest(request.id)
  return {
    status: 'declined', declined_at: after?.declined_at ?? ctx.now().toISOString(),
    session: { id: session.id, status: 'declined' }, request: { id: request.id, status: 'declined' },
  }
}
