// Issue 38 follow-up in Chromium: a signer without an account opens their link, enters the code
// from the real SMTP server's mail and declines with a reason instead of signing; the page says
// so and the session ends declined with that reason. axe-clean at 390 px.
import t from 'tap'
import type { Page } from 'playwright-core'
import { startSmtpPeer, type ReceivedMail } from '../helpers/delivery-peers.ts'
import { login, DEMO } from '../helpers/app.ts'
import { pageErrors, passes, startBrowserSession } from '../helpers/browser.ts'
import { uploadDocument } from '../plugins/signature/documents/document-helpers.ts'

t.setTimeout(300_000)

t.test('the outsider declines with a reason', async (t) => {
  const smtp = await startSmtpPeer(t)
  process.env.SMTP_URL = smtp.url
  t.teardown(() => { delete process.env.SMTP_URL })
  const { baseUrl, browser, app } = await startBrowserSession(t)
  const mail = async (test: (m: ReceivedMail) => boolean): Promise<ReceivedMail> => {
    for (let n = 1; ; n++) {
      const found = (await smtp.waitFor(n, 60_000)).find(test)
      if (found) return found
    }
  }
  const admin = await login(app, DEMO.admin.email)
  const document = (await uploadDocument(app, admin)).json().data
  const created = await app.inject({
    method: 'POST', url: '/api/signing-sessions', headers: { cookie: admin },
    payload: { document: document.id, signers: [{ email: 'olga@example.net', name: 'Olga Outside' }], fields: [{ signer: 0, type: 'signature', page: 1, x: 40, y: 40, width: 200, height: 60 }] },
  })
  t.equal(created.statusCode, 201, created.body)
  const invitation = await mail((m) => m.to[0] === 'olga@example.net' && m.subject.startsWith('Please sign'))
  const link = /\/sign\/([A-Za-z0-9_-]+)/.exec(invitation.text)![0]

  const context = await browser.newContext({ baseURL: baseUrl, viewport: { width: 390, height: 844 }, bypassCSP: true })
  const page: Page = await context.newPage()
  await page.goto(link)
  await page.locator('[data-send-code]').click()
  await page.locator('[data-code-input]').waitFor()
  const code = /^\s*(\d{6})\s*$/m.exec((await mail((m) => m.to[0] === 'olga@example.net' && m.subject.startsWith('Your code'))).text)![1]!
  await page.locator('[data-code-input]').fill(code)
  await page.locator('[data-verify]').click()
  await page.locator('[data-document-heading]').waitFor()

  await page.locator('[data-decline] summary').click()
  await page.locator('[data-decline-button]').click()
  t.match(await page.locator('[data-sign-panel] [data-error]').innerText(), /Say why you decline/, 'a reason is asked for first')
  await page.locator('[data-decline-reason]').fill('Wrong start date.')
  await passes(t, page, 'sign-link-decline-390')
  await page.locator('[data-decline-button]').click()
  await page.locator('[data-declined-heading]').waitFor()
  await passes(t, page, 'sign-link-declined-390')
  const session = await app.signature.database.db.selectFrom('signing_sessions').select('status').executeTakeFirstOrThrow()
  t.equal(session.status, 'declined')
  const request = await app.signature.database.db.selectFrom('signing_session_requests').select(['status', 'decline_reason']).executeTakeFirstOrThrow()
  t.same(request, { status: 'declined', decline_reason: 'Wrong start date.' })
  t.same(pageErrors(page), [], 'no script errors')
})
