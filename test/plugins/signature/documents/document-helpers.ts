// Shared steps of the tests of uploaded documents and signers by e-mail (issue 38), all over HTTP.
import type { FastifyInstance } from 'fastify'
import type { LightMyRequestResponse } from 'fastify'
import { makePdf } from '../../../fixtures/pdf/make-pdf.ts'
import type { ReceivedMail } from '../../../helpers/delivery-peers.ts'

export const EXTERNAL = { email: 'erin.external@example.net', name: 'Erin External' }

export async function uploadDocument(app: FastifyInstance, cookie: string, pdf?: Uint8Array, filename = 'contract.pdf') {
  return app.inject({
    method: 'POST', url: `/api/documents?filename=${encodeURIComponent(filename)}`,
    headers: { cookie, 'content-type': 'application/pdf' }, payload: Buffer.from(pdf ?? await makePdf()),
  })
}

/** An external signer (signature, date, name fields) and optionally a user (a signature field), on page 1 of a letter-landscape PDF. */
export function documentSessionBody(documentId: string, options: { user?: string; email?: string; name?: string; mode?: 'sequential' | 'parallel' } = {}) {
  const signers: object[] = [{ email: options.email ?? EXTERNAL.email, name: options.name ?? EXTERNAL.name }]
  const fields: object[] = [
    { signer: 0, type: 'signature', page: 1, x: 72, y: 100, width: 200, height: 60 },
    { signer: 0, type: 'date', page: 1, x: 300, y: 100, width: 120, height: 20 },
    { signer: 0, type: 'name', page: 1, x: 300, y: 130, width: 180, height: 20 },
  ]
  if (options.user) {
    signers.push({ user: options.user })
    fields.push({ signer: 1, type: 'signature', page: 1, x: 500, y: 100, width: 200, height: 60 })
  }
  return { document: documentId, mode: options.mode ?? 'sequential', message: 'Please sign the contract.', signers, fields }
}

export async function createDocumentSession(app: FastifyInstance, cookie: string, body: object) {
  return app.inject({ method: 'POST', url: '/api/signing-sessions', headers: { cookie }, payload: body })
}

/** The token of the sign link in a mail (`<PUBLIC_URL>/sign/<token>`). */
export function tokenIn(mail: ReceivedMail): string {
  const token = /\/sign\/([A-Za-z0-9_-]{43})/.exec(mail.text)?.[1]
  if (!token) throw new Error(`no sign link in: ${mail.text}`)
  return token
}

export function codeIn(mail: ReceivedMail): string {
  const code = /^\s+(\d{6})\s*$/m.exec(mail.text)?.[1]
  if (!code) throw new Error(`no code in: ${mail.text}`)
  return code
}

/** The `sign_link=<value>` pair a verify answer set. */
export function signLinkCookie(response: LightMyRequestResponse): string {
  const header = response.headers['set-cookie']
  const pair = (Array.isArray(header) ? header : [header ?? '']).find((c) => c.startsWith('sign_link='))
  if (!pair) throw new Error('verify set no sign_link cookie')
  return pair.split(';')[0]!
}

/** Waits for the next mail matching `test` among those received (they arrive in any order). */
export async function mailMatching(smtp: { messages: ReceivedMail[]; waitFor(count: number, timeoutMs?: number): Promise<ReceivedMail[]> }, test: (mail: ReceivedMail) => boolean, skip = 0): Promise<ReceivedMail> {
  for (let count = 1; ; count++) {
    const list = await smtp.waitFor(count)
    const found = list.filter(test)
    if (found.length > skip) return found[skip]!
  }
}

export async function signInWithCode(app: FastifyInstance, smtp: Parameters<typeof mailMatching>[0], token: string, codeMailIndex = 0) {
  const sent = await app.inject({ method: 'POST', url: `/api/sign-links/${token}/code` })
  if (sent.statusCode !== 204) throw new Error(`code: ${sent.statusCode} ${sent.body}`)
  const mail = await mailMatching(smtp, (m) => m.subject.startsWith('Your code to sign'), codeMailIndex)
  const verified = await app.inject({ method: 'POST', url: `/api/sign-links/${token}/verify`, payload: { code: codeIn(mail) } })
  if (verified.statusCode !== 200) throw new Error(`verify: ${verified.statusCode} ${verified.body}`)
  return { cookie: signLinkCookie(verified), info: verified.json().data }
}

interface TapLike { teardown(fn: () => unknown): void }

/**
 * An app with a real SMTP peer, an admin's uploaded document and a session sent to the given
 * external signers (each with a signature field); answers each signer's token from their invitation.
 */
export async function externalSignersSession(t: TapLike, signers: Array<{ email: string; name: string }> = [EXTERNAL], options: { mode?: 'sequential' | 'parallel' } = {}) {
  const { buildTestApp, DEMO, login } = await import('../../../helpers/app.ts')
  const { startSmtpPeer } = await import('../../../helpers/delivery-peers.ts')
  const smtp = await startSmtpPeer(t)
  const app = await buildTestApp(t, { env: { SMTP_URL: smtp.url } })
  const admin = await login(app, DEMO.admin.email)
  const document = (await uploadDocument(app, admin)).json().data
  const created = await createDocumentSession(app, admin, {
    document: document.id, mode: options.mode ?? 'parallel', signers,
    fields: signers.map((_, i) => ({ signer: i, type: 'signature', page: 1, x: 40 + i * 10, y: 40 + i * 70, width: 200, height: 60 })),
  })
  if (created.statusCode !== 201) throw new Error(`create: ${created.statusCode} ${created.body}`)
  const session = created.json().data
  const tokens: string[] = []
  for (const signer of signers) tokens.push(tokenIn(await mailMatching(smtp, (m) => m.to[0] === signer.email && m.subject.startsWith('Please sign'))))
  return { app, smtp, admin, document, session, tokens }
}
