// Without SMTP_URL the embedded default writes each message as an .eml under storage/mail (through
// the storage disk, atomically) and /admin/outbox lists it with a link to the file; the page is
// for signature-outbox:read (admins) only.
import { readdir, readFile } from 'node:fs/promises'
import path from 'node:path'
import t from 'tap'
import { buildTestApp, DEMO, login } from '../../../helpers/app.ts'
import { getPage } from '../../../helpers/pages.ts'

t.setTimeout(120_000)

t.test('an invitation becomes an .eml file, listed and downloadable at /admin/outbox', async (t) => {
  const app = await buildTestApp(t, { env: { PUBLIC_URL: 'https://demo.example.test' } })
  const admin = await login(app, DEMO.admin.email)
  const staff = await login(app, DEMO.staff.email)
  const created = await app.inject({ method: 'POST', url: '/api/signing-sessions', headers: { cookie: admin }, payload: { template: 'payslip', signable: 'payslip-staff-2026-03', mode: 'parallel' } })
  t.equal(created.statusCode, 201, created.body)
  await app.signature.outbox.dispatcher.runOnce()

  const folder = path.join(app.signature.mail.disk.root)
  const files = (await readdir(folder)).filter((f) => !f.startsWith('.'))
  t.equal(files.length, 2, 'one .eml per invited signer (parallel: both), no temporary file left')
  const texts = await Promise.all(files.map((f) => readFile(path.join(folder, f), 'utf8')))
  t.same(texts.map((x) => /^To: .*<(.*)>$/m.exec(x)?.[1]).sort(), [DEMO.admin.email, DEMO.staff.email].sort())
  t.ok(texts.every((x) => /^Subject: Please sign: /m.test(x) && x.includes('https://demo.example.test/app/')), 'an invitation with a link under PUBLIC_URL')

  const page = await getPage(app, '/admin/outbox', admin)
  t.equal(page.statusCode, 200)
  t.match(page.body, 'written as an .eml file')
  // Issue 39 item 11: a mail written to a file was listed as "sent", as if someone had received it.
  const statuses = [...page.body.matchAll(/<tr data-message="[^"]+" data-status="sent">[\s\S]*?<\/tr>/g)].map((m) => m[0])
  t.equal(statuses.length, 2)
  t.ok(statuses.every((row) => /data-written-to-file>written to a file<\/span><br><small>no mail server configured<\/small>/.test(row)), 'each says it was written to a file')
  t.ok(statuses.every((row) => !/<span class="badge[^"]*">sent<\/span>/.test(row)), 'none says "sent"')
  const links = [...page.body.matchAll(/href="([^"]+message\.eml)"/g)].map((m) => m[1]!)
  t.equal(links.length, 2, 'each message links to its file')
  const eml = await app.inject({ method: 'GET', url: links[0]!, headers: { cookie: admin } })
  t.equal(eml.statusCode, 200)
  t.equal(eml.headers['content-type'], 'message/rfc822')
  t.ok(texts.includes(eml.body), 'the file as written')

  t.equal((await getPage(app, '/admin/outbox', staff)).statusCode, 307, 'not for staff (the admin panel sends them away)')
  const unknown = await app.inject({ method: 'GET', url: '/admin/outbox/../../keys/message.eml', headers: { cookie: admin } })
  t.not(unknown.statusCode, 200, 'no way out of the mail folder')
})
