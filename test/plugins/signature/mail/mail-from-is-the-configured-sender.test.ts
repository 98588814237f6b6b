// Issue 20, item 5: the From of every e-mail is the host's to choose (MAIL_FROM), as a real SMTP
// server receives it; a value that could add a header (a line break) stops the boot naming it.
import t from 'tap'
import { loadAppEnv } from '../../../../config/app.ts'
import { buildTestApp, DEMO, login } from '../../../helpers/app.ts'
import { startSmtpPeer } from '../../../helpers/delivery-peers.ts'

const fromOf = (raw: string) => /^From: (.*)$/mi.exec(raw)?.[1]?.trim()

t.test('MAIL_FROM is the From of the invitation the SMTP server receives', async (t) => {
  const smtp = await startSmtpPeer(t)
  const app = await buildTestApp(t, { env: { SMTP_URL: smtp.url, MAIL_FROM: 'Example HR <hr@example.org>' } })
  const admin = await login(app, DEMO.admin.email)
  const created = await app.inject({ method: 'POST', url: '/api/signing-sessions', headers: { cookie: admin }, payload: { template: 'payslip', signable: 'payslip-staff-2026-03', mode: 'sequential' } })
  t.equal(created.statusCode, 201)
  const [invitation] = await smtp.waitFor(1)
  t.equal(fromOf(invitation!.raw), 'Example HR <hr@example.org>')
})

t.test('without MAIL_FROM: no-reply at the public host', async (t) => {
  const smtp = await startSmtpPeer(t)
  const app = await buildTestApp(t, { env: { SMTP_URL: smtp.url, PUBLIC_URL: 'https://sign.example.test' } })
  const admin = await login(app, DEMO.admin.email)
  await app.inject({ method: 'POST', url: '/api/signing-sessions', headers: { cookie: admin }, payload: { template: 'payslip', signable: 'payslip-staff-2026-03', mode: 'sequential' } })
  const [invitation] = await smtp.waitFor(1)
  t.equal(fromOf(invitation!.raw), 'Signatures <no-reply@sign.example.test>')
})

t.test('a MAIL_FROM that is not one address stops the boot, naming the variable', async (t) => {
  for (const bad of ['hr@example.org\r\nBcc: all@example.org', 'HR "Team" <hr@example.org>', 'not an address', '<hr@example.org']) {
    t.throws(() => loadAppEnv({ MAIL_FROM: bad }), /MAIL_FROM: an e-mail address, or Name <address>/, JSON.stringify(bad))
  }
  t.equal(loadAppEnv({ MAIL_FROM: 'hr@example.org' }).MAIL_FROM, 'hr@example.org')
})
