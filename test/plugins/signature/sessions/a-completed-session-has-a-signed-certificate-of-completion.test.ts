// Issue 20, item 7: when a session completes, a certificate of completion — signers, their
// addresses and times, the document's SHA-256 before and after each signature, the history —
// signed by the application (pdfsig: valid; certified P=1), on the session page and attached to
// the "completed" mail, which a real SMTP server receives. Not before completion; not for outsiders.
import { createHash } from 'node:crypto'
import { execFile } from 'node:child_process'
import { writeFile } from 'node:fs/promises'
import path from 'node:path'
import { promisify } from 'node:util'
import t from 'tap'
import { pdfsig, qpdfCheck } from '../../../fixtures/pdf/checkers.ts'
import { buildTestApp, DEMO, login } from '../../../helpers/app.ts'
import { startSmtpPeer } from '../../../helpers/delivery-peers.ts'
import { getPage } from '../../../helpers/pages.ts'
import { finalize, signerWithSignature } from '../signing/helpers.ts'

const run = promisify(execFile)
const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex')
t.setTimeout(180_000)

/** The base64 body of the MIME part whose filename ends in `suffix`, decoded. */
function attachment(raw: string, suffix: string): Buffer | null {
  const match = new RegExp(`filename="?[^"\\r\\n]*${suffix}"?[\\s\\S]*?\\r?\\n\\r?\\n([A-Za-z0-9+/=\\r\\n]+)`).exec(raw)
  return match ? Buffer.from(match[1]!.replace(/\s+/g, ''), 'base64') : null
}

t.test('sign a payslip session to the end: a signed certificate on the page, in the API and in the mail', async (t) => {
  const smtp = await startSmtpPeer(t)
  const app = await buildTestApp(t, { env: { SMTP_URL: smtp.url } })
  const admin = await signerWithSignature(app, DEMO.admin.email, 'Ada')
  const staff = await signerWithSignature(app, DEMO.staff.email, 'Sam')
  const created = (await app.inject({ method: 'POST', url: '/api/signing-sessions', headers: { cookie: admin.cookie }, payload: { template: 'payslip', signable: 'payslip-staff-2026-03', mode: 'sequential' } })).json().data
  const certificateUrl = `/api/signing-sessions/${created.id}/certificate`
  const early = await app.inject({ url: certificateUrl, headers: { cookie: admin.cookie } })
  t.same([early.statusCode, early.json().code], [409, 'ERR_SESSION_NOT_COMPLETED'], 'none before every signer signed')

  for (const [signer, slot] of [[admin, 'payroll'], [staff, 'employee']] as const) {
    const request = created.requests.find((r: { slot: string }) => r.slot === slot).id
    const signed = await finalize(app, signer, 'payslip', { signature: signer.signature, request, placements: [] })
    t.equal(signed.statusCode, 200, signed.body)
  }
  const detail = (await app.inject({ url: `/api/signing-sessions/${created.id}`, headers: { cookie: admin.cookie } })).json().data
  t.equal(detail.status, 'completed')
  const finalPdf = (await app.inject({ url: detail.documentUrl, headers: { cookie: admin.cookie } })).rawPayload

  const response = await app.inject({ url: certificateUrl, headers: { cookie: staff.cookie } })
  t.equal(response.statusCode, 200, 'a signer may download it')
  t.equal(response.headers['content-type'], 'application/pdf')
  const certificate = response.rawPayload
  const { signatures, output } = await pdfsig(certificate)
  t.equal(signatures.length, 1, output)
  t.equal(signatures[0]!.validation, 'Signature is Valid.', output)
  t.ok(signatures[0]!.totalDocumentSigned, 'the signature covers the whole certificate')
  t.ok((await qpdfCheck(certificate)).clean)
  t.match(certificate.toString('latin1'), /\/DocMDP[\s\S]*\/P 1/, 'certified with no change allowed (DocMDP P=1)')

  const dir = t.testdir({})
  await writeFile(path.join(dir, 'certificate.pdf'), certificate)
  const { stdout: text } = await run('pdftotext', ['-layout', path.join(dir, 'certificate.pdf'), '-'])
  const flat = text.replace(/\s+/g, ' ')
  t.match(flat, 'Certificate of completion')
  t.match(flat, 'Ada Admin <admin@example.com>, signing "payroll"')
  t.match(flat, 'Sam Staff <staff@example.com>, signing "employee"')
  t.match(flat, `SHA-256 of the document as sent for signing: ${detail.frozenSha256}`)
  // The document as the last signature left it; what anyone downloads is that file sealed (B-LTA:
  // a DSS and a document timestamp appended), whose hash the trail's 'sealed' event gives.
  const completedEvent = detail.events.find((e: { event: string }) => e.event === 'completed')
  t.match(flat, `SHA-256 of the completed, signed document: ${completedEvent.sha256After}`, 'the final hash is that of the completed document')
  t.equal(detail.events.at(-1).sha256After, sha256(finalPdf), 'the download is the sealed revision')
  for (const event of detail.events.filter((e: { event: string }) => e.event === 'signed')) {
    t.match(flat, `SHA-256 before: ${event.sha256Before}`)
    t.match(flat, `SHA-256 after: ${event.sha256After}`)
    t.match(flat, `from ${event.address}`, 'where the signer signed from')
  }
  t.same((await app.inject({ url: certificateUrl, headers: { cookie: admin.cookie } })).rawPayload, certificate, 'made once, then served as stored')

  // Another staff member: no part in the session and no read-any (the manager has read-any).
  const outsider = (await app.users.list({ page: 1, perPage: 50 })).data.find((u) => u.role === 'staff' && u.id !== DEMO.staff.id)!
  t.equal((await app.inject({ url: certificateUrl, headers: { cookie: await login(app, outsider.email) } })).statusCode, 404, 'someone with no part in the session: 404')

  const page = await getPage(app, `/app/sessions/${created.id}`, admin.cookie)
  t.match(page.body, `href="${certificateUrl}" data-certificate-link`, 'the session page links it')

  await app.signature.outbox.dispatcher.runOnce()
  const completed = smtp.messages.filter((m) => m.subject.startsWith('Signed by everyone'))
  t.same(completed.map((m) => m.to[0]).sort(), [DEMO.admin.email, DEMO.staff.email].sort(), 'the completed mail reached both signers (and the creator among them)')
  for (const mail of completed) {
    const attached = attachment(mail.raw, 'certificate.pdf')
    t.ok(attached, `${mail.to[0]}: the certificate is attached`)
    t.same(attached, certificate, `${mail.to[0]}: the same signed certificate`)
  }
})
