import { randomBytes, randomInt, randomUUID, timingSafeEqual } from 'node:crypto'
import { z } from 'zod'
import { parseInput } from '../../../core/http/validate.ts'
import type { PageSize } from '../documents/documents.ts'
import type { SignLinkTable } from '../documents/documents-tables.ts'
import {
  ERR_SESSION_NOT_COMPLETED, ERR_SIGN_CODE_EXPIRED, ERR_SIGN_CODE_INVALID, ERR_SIGN_CODE_LOCKED, ERR_SIGN_LINK_EXPIRED,
  ERR_SIGN_LINK_NOT_FOUND, ERR_SIGN_LINK_UNVERIFIED, ERR_SIGN_LINK_USED, ERR_SIGN_RATE_LIMITED,
} from '../errors.ts'
import type { MailPayload } from '../mail/mail-payload.ts'
import { ERR_IMAGE_INVALID } from '../pdf/errors.ts'
import type { SessionFinalizeResult } from '../signing/session-finalizer.ts'
import { documentDeps } from './session-create-document.ts'
import type { SessionContext } from './session-context.ts'
import { sessionEvent } from './session-events.ts'
import { isExpired } from './session-expiry.ts'
import { EXTERNAL_TARGET } from './session-notifications.ts'
import { signAs } from './session-sign.ts'
import type { SigningSessionRequestTable, SigningSessionTable } from './session-tables.ts'
import { fieldValues, requestFields } from './request-fields.ts'
import { sha256Of, SIGN_LINK_DAYS, SIGN_LINK_TOKEN } from './sign-link-tokens.ts'

// An external signer's way in: the mailed link's token names one request; a one-time code mailed
// to the request's address proves the reader holds that mailbox; the cookie set on verify opens
// this link only. Every refusal has its own code (docs/signing-documents-api.md).

export const SIGN_LINK_COOKIE = 'sign_link'
const CODE_TTL_MS = 10 * 60_000
const COOKIE_TTL_MS = 60 * 60_000
export const MAX_CODE_ATTEMPTS = 5
const HOUR_MS = 3_600_000

export interface SignLinkInfo {
  sessionId: string
  title: string
  signer: { name: string; email: string }
  message: string | null
  status: string
  pages: PageSize[]
  fields: Array<{ id: string; type: string; page: number; x: number; y: number; width: number; height: number; label: string | null }>
}

interface Opened { link: SignLinkTable; session: SigningSessionTable; request: SigningSessionRequestTable }

export interface Client { address?: string | undefined; userAgent?: string | undefined }

async function openLink(ctx: SessionContext, token: string): Promise<Opened> {
  if (!SIGN_LINK_TOKEN.test(token)) throw ERR_SIGN_LINK_NOT_FOUND()
  const { repository } = ctx.deps
  const link = await repository.db.selectFrom('sign_links').selectAll().where('token_sha256', '=', sha256Of(token)).executeTakeFirst()
  const request = link ? await repository.findRequest(link.request_id) : undefined
  const session = link ? await repository.findSession(link.session_id) : undefined
  if (!link || !request || !session) throw ERR_SIGN_LINK_NOT_FOUND()
  return { link, session, request }
}

function assertUsable(ctx: SessionContext, { link, session, request }: Opened): void {
  const now = ctx.now()
  if (link.used_at || request.status === 'signed' || request.status === 'declined' || session.status !== 'active') {
    throw ERR_SIGN_LINK_USED(link.used_at || request.status === 'signed' ? 'This link has been used to sign' : `The signing has ended (${session.status})`)
  }
  if (link.expires_at <= now.toISOString() || isExpired(session, now)) throw ERR_SIGN_LINK_EXPIRED()
}

/** Mails a new 6-digit code to the request's address (the old one stops working), within the hourly limits. */
export async function sendSignCode(ctx: SessionContext, token: string): Promise<void> {
  const docs = documentDeps(ctx)
  const opened = await openLink(ctx, token)
  assertUsable(ctx, opened)
  const { link, session, request } = opened
  const db = ctx.deps.repository.db
  const now = ctx.now()
  const hourAgo = new Date(now.getTime() - HOUR_MS).toISOString()
  const count = async (column: 'request_id' | 'email', value: string) => Number((await db.selectFrom('sign_link_codes_sent')
    .select((eb) => eb.fn.countAll().as('n')).where(column, '=', value).where('sent_at', '>', hourAgo).executeTakeFirstOrThrow()).n)
  const retry = { headers: { 'retry-after': String(HOUR_MS / 1000) } }
  if (await count('request_id', link.request_id) >= docs.limits.codes_per_link_per_hour) throw ERR_SIGN_RATE_LIMITED(`At most ${docs.limits.codes_per_link_per_hour} codes an hour for one link`, retry)
  if (await count('email', link.email) >= docs.limits.codes_per_address_per_hour) throw ERR_SIGN_RATE_LIMITED(`At most ${docs.limits.codes_per_address_per_hour} codes an hour for one address`, retry)

  const code = String(randomInt(0, 1_000_000)).padStart(6, '0')
  const at = now.toISOString()
  const payload: MailPayload = {
    kind: 'sign-code', sessionId: session.id, requestId: request.id, template: session.template_key, title: session.signable_title,
    actor: null, reason: null, code: docs.secrets.seal(code, request.id),
  }
  await db.transaction().execute(async (tx) => {
    await tx.updateTable('sign_links').set({ code_sha256: codeDigest(request.id, code), code_expires_at: new Date(now.getTime() + CODE_TTL_MS).toISOString(), code_attempts: 0 })
      .where('request_id', '=', request.id).execute()
    await tx.insertInto('sign_link_codes_sent').values({ id: randomUUID(), request_id: request.id, email: link.email, sent_at: at }).execute()
    await docs.outbox.write(tx, [{ channel: 'mail', topic: 'sign-code', target: `${EXTERNAL_TARGET}${request.id}`, payload }], at)
  })
  docs.outbox.committed()
}

const codeDigest = (requestId: string, code: string) => sha256Of(`${requestId}:${code}`)
const codeSchema = z.strictObject({ code: z.string().trim().regex(/^\d{6}$/, 'six digits') })

/** Checks the code; right, it is spent and a cookie for this link only is issued (its value returned). */
export async function verifySignCode(ctx: SessionContext, token: string, body: unknown, client: Client): Promise<{ info: SignLinkInfo; cookie: string; maxAgeSeconds: number }> {
  const { code } = parseInput(codeSchema, body, 'body')
  const opened = await openLink(ctx, token)
  assertUsable(ctx, opened)
  const { link, session, request } = opened
  const db = ctx.deps.repository.db
  const now = ctx.now()
  if (!link.code_sha256 || !link.code_expires_at || link.code_expires_at <= now.toISOString()) throw ERR_SIGN_CODE_EXPIRED()
  if (Number(link.code_attempts) >= MAX_CODE_ATTEMPTS) throw ERR_SIGN_CODE_LOCKED()
  if (!sameDigest(codeDigest(request.id, code), link.code_sha256)) {
    // Counted in one conditional UPDATE: concurrent guesses cannot share an attempt.
    await db.updateTable('sign_links').set((eb) => ({ code_attempts: eb('code_attempts', '+', 1) }))
      .where('request_id', '=', request.id).where('code_sha256', '=', link.code_sha256).execute()
    const after = await db.selectFrom('sign_links').select('code_attempts').where('request_id', '=', request.id).executeTakeFirstOrThrow()
    const left = MAX_CODE_ATTEMPTS - Number(after.code_attempts)
    if (left <= 0) throw ERR_SIGN_CODE_LOCKED()
    throw ERR_SIGN_CODE_INVALID(`The code is not right: ${left} attempt(s) left`)
  }
  const cookie = randomBytes(32).toString('base64url')
  const maxAge = Math.min(COOKIE_TTL_MS, Date.parse(link.expires_at) - now.getTime())
  const spent = await db.updateTable('sign_links')
    .set({ code_sha256: null, code_expires_at: null, code_attempts: 0, cookie_sha256: sha256Of(cookie), cookie_expires_at: new Date(now.getTime() + maxAge).toISOString() })
    .where('request_id', '=', request.id).where('code_sha256', '=', link.code_sha256).where('code_attempts', '<', MAX_CODE_ATTEMPTS)
    .executeTakeFirst()
  // Another verify with the same code won the race: the code is spent.
  if (Number(spent.numUpdatedRows) !== 1) throw ERR_SIGN_CODE_EXPIRED()
  await ctx.deps.repository.appendEvent(sessionEvent({
    sessionId: session.id, requestId: request.id, event: 'opened', actor: null, sha256Before: session.current_sha256, sha256After: session.current_sha256,
    at: now.toISOString(), detail: `identified by e-mail code sent to ${link.email}`, address: client.address, userAgent: client.userAgent,
  }))
  return { info: await linkInfo(ctx, opened), cookie, maxAgeSeconds: Math.floor(maxAge / 1000) }
}

function sameDigest(a: string, b: string): boolean {
  const x = Buffer.from(a)
  const y = Buffer.from(b)
  return x.length === y.length && timingSafeEqual(x, y)
}

/** The link, usable and opened by this link's own cookie; anything else is ERR_SIGN_LINK_UNVERIFIED. */
export async function verified(ctx: SessionContext, token: string, cookie: string | undefined): Promise<Opened> {
  const opened = await openLink(ctx, token)
  assertUsable(ctx, opened)
  const { link } = opened
  if (!cookie || !link.cookie_sha256 || !link.cookie_expires_at || link.cookie_expires_at <= ctx.now().toISOString() || !sameDigest(sha256Of(cookie), link.cookie_sha256)) {
    throw ERR_SIGN_LINK_UNVERIFIED()
  }
  return opened
}

async function linkInfo(ctx: SessionContext, { link, session, request }: Opened): Promise<SignLinkInfo> {
  const document = await documentDeps(ctx).documents.find(session.signable_id)
  return {
    sessionId: session.id, title: session.signable_title, signer: { name: request.signer_name ?? '', email: link.email }, message: session.message ?? null,
    status: request.status === 'pending' && session.status !== 'active' ? session.status : request.status,
    pages: document ? (JSON.parse(document.pages) as PageSize[]) : [],
    fields: requestFields(request).map(({ name: _name, ...field }) => field),
  }
}

export async function signLinkInfo(ctx: SessionContext, token: string, cookie: string | undefined): Promise<SignLinkInfo> {
  return linkInfo(ctx, await verified(ctx, token, cookie))
}

/** The current revision (the signer reads what they sign, earlier signatures included). */
export async function signLinkDocument(ctx: SessionContext, token: string, cookie: string | undefined): Promise<{ key: string; title: string }> {
  const { session } = await verified(ctx, token, cookie)
  return { key: session.current_document_key, title: session.signable_title }
}

const finalizeSchema = z.strictObject({
  signature: z.union([
    z.strictObject({ typed: z.string().trim().min(1).max(200) }),
    z.strictObject({ image: z.string().max(800_000, 'the image is too large').regex(/^data:image\/png;base64,[A-Za-z0-9+/]+={0,2}$/, 'a data URL of a PNG image') }),
  ]),
  fields: z.record(z.string().max(16), z.string().trim().min(1).max(200)).optional(),
})

/**
 * Signs the request with a certificate the application's CA issues to the signer's name and
 * address for this one signing; the link is spent in the transaction that records the signature.
 */
export async function finalizeSignLink(ctx: SessionContext, token: string, cookie: string | undefined, body: unknown, client: Client): Promise<SessionFinalizeResult> {
  const input = parseInput(finalizeSchema, body, 'body')
  const { link, session, request } = await verified(ctx, token, cookie)
  const docs = documentDeps(ctx)
  let image: Buffer | undefined
  if ('image' in input.signature) {
    image = Buffer.from(input.signature.image.slice(input.signature.image.indexOf(',') + 1), 'base64')
    // Decoded once before the work of signing: a bad image is the signer's 422, not a failed signing.
    await ctx.deps.pdf.run('decodeStampImage', image).catch(() => { throw ERR_IMAGE_INVALID() })
  }
  const name = request.signer_name ?? link.email
  // Refused before a certificate is issued: values only for this signer's initials and text fields.
  fieldValues(requestFields(request), { name, day: '', values: input.fields ?? {} })
  const certificate = await docs.issueCertificate({ name, email: link.email })
  const at = ctx.now().toISOString()
  return signAs(ctx, session, request, {
    actor: null, name, p12: certificate.p12, password: certificate.password, certificateSubject: certificate.subject,
    ...(image ? { image } : { typed: 'typed' in input.signature ? input.signature.typed : name }),
    identifiedBy: 'email-code', address: client.address, userAgent: client.userAgent, ...(input.fields ? { values: input.fields } : {}),
    also: async (tx) => {
      const used = await tx.updateTable('sign_links').set({ used_at: at, cookie_sha256: null }).where('request_id', '=', request.id).where('used_at', 'is', null).executeTakeFirst()
      if (Number(used.numUpdatedRows) !== 1) throw ERR_SIGN_LINK_USED()
    },
  })
}

/** The completed, sealed document for an external signer: by their token alone, for 14 days after completion. */
export async function signedDocumentByLink(ctx: SessionContext, token: string): Promise<{ key: string; title: string }> {
  const { session } = await openLink(ctx, token)
  if (session.status !== 'completed' || !session.closed_at) throw ERR_SESSION_NOT_COMPLETED()
  if (Date.parse(session.closed_at) + SIGN_LINK_DAYS * 86_400_000 <= ctx.now().getTime()) throw ERR_SIGN_LINK_EXPIRED()
  return { key: session.current_document_key, title: session.signable_title }
}
