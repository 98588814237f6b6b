import { ERR_SIGN_RATE_LIMITED } from '../errors.ts'
import type { SessionContext } from './session-context.ts'

// A creator cannot mail-bomb anyone: sessions per creator an hour (template or document sessions),
// invitations per external address a day (over sign links, whoever sent them). Limits come from
// config (signature.documents); without them (a manager built without document support) none apply.

const HOUR_MS = 3_600_000
const DAY_MS = 86_400_000

export async function assertCreatorWithinLimit(ctx: SessionContext, creatorId: string, now: Date): Promise<void> {
  const limit = ctx.deps.documents?.limits.sessions_per_creator_per_hour
  if (limit === undefined) return
  const created = await ctx.deps.repository.db.selectFrom('signing_sessions').select((eb) => eb.fn.countAll().as('n'))
    .where('created_by', '=', creatorId).where('created_at', '>', new Date(now.getTime() - HOUR_MS).toISOString()).executeTakeFirstOrThrow()
  if (Number(created.n) >= limit) throw ERR_SIGN_RATE_LIMITED(`At most ${limit} sessions an hour per sender`, { headers: { 'retry-after': String(HOUR_MS / 1000) } })
}

export async function assertInvitationsWithinLimit(ctx: SessionContext, emails: readonly string[], now: Date): Promise<void> {
  const limit = ctx.deps.documents?.limits.invitations_per_address_per_day
  if (limit === undefined) return
  const dayAgo = new Date(now.getTime() - DAY_MS).toISOString()
  for (const email of emails) {
    const sent = await ctx.deps.repository.db.selectFrom('sign_links').select((eb) => eb.fn.countAll().as('n'))
      .where('email', '=', email).where('created_at', '>', dayAgo).executeTakeFirstOrThrow()
    if (Number(sent.n) >= limit) throw ERR_SIGN_RATE_LIMITED(`${email} has had ${limit} invitations today: no more until tomorrow`, { headers: { 'retry-after': String(DAY_MS / 1000) } })
  }
}
