// Issue 20's path through e-mail, in Chromium: a real SMTP server and a real webhook receiver are
// started here. The admin starts a payslip session (payroll, then the employee; created through
// the API: the send form is another part of the issue). Each signer opens the link of the
// invitation they received - no PUBLIC_URL, so links use the address the app listens on - signs
// on the signer page by clicking, and the next one is invited only then. Both get the completion
// with a link that downloads the signed PDF; the receiver has every event in order, each signed.
import path from 'node:path'
import t from 'tap'
import type { Page } from 'playwright-core'
import { startSmtpPeer, startWebhookPeer } from '../helpers/delivery-peers.ts'
import { pageErrors, SCREENSHOTS, signedInPage, startBrowserSession } from '../helpers/browser.ts'
import { STAMP_DATA_URL } from '../plugins/signature/signing/helpers.ts'

t.setTimeout(300_000)

const linkIn = (text: string) => /(http:\/\/127\.0\.0\.1:\d+\/\S+)/.exec(text)?.[1]

t.test('each signer signs from the link in their e-mail; webhooks in order', async (t) => {
  const smtp = await startSmtpPeer(t)
  const receiver = await startWebhookPeer(t)
  // buildApp reads these from the environment, as `npm start` would.
  process.env.SMTP_URL = smtp.url
  process.env.WEBHOOKS_ALLOW_PRIVATE = 'true'
  const { baseUrl, browser } = await startBrowserSession(t)
  const admin = await signedInPage(browser, baseUrl, 'admin@example.com')
  const staff = await signedInPage(browser, baseUrl, 'staff@example.com')

  const registered = await admin.request.post('/api/webhooks', { data: { url: receiver.url, events: ['session.created', 'session.request.opened', 'session.request.signed', 'session.completed'] } })
  t.equal(registered.status(), 201)
  receiver.useSecret((await registered.json()).data.secret)
  for (const page of [admin, staff]) {
    t.equal((await page.request.post('/api/signatures', { data: { label: 'Mine', image: STAMP_DATA_URL, certificate: { mode: 'issue' } } })).status(), 201)
  }
  const created = await admin.request.post('/api/signing-sessions', { data: { template: 'payslip', signable: 'payslip-staff-2026-03', mode: 'sequential' } })
  t.equal(created.status(), 201)
  const session = (await created.json()).data

  const signFromMail = async (page: Page, who: string, slot: string, mailIndex: number) => {
    const mail = (await smtp.waitFor(mailIndex + 1))[mailIndex]!
    t.match(mail.subject, 'Please sign: ', `${who}: invited`)
    const link = linkIn(mail.text)
    t.ok(link?.startsWith(baseUrl), `${who}: the link is on the listen address (${link})`)
    await page.goto(link!)
    await page.locator(`[data-chip="${slot}"]`).click()
    await page.locator(`[data-box="${slot}"] img`).waitFor()
    await page.getByRole('button', { name: 'Finish & Save' }).click()
    await page.locator('[data-download]').waitFor({ timeout: 90_000 })
    t.match(await page.locator('[data-status]').innerText(), /Signed/, `${who}: signed`)
    await page.screenshot({ path: path.join(SCREENSHOTS, `mail-link-signed-${who}.png`), fullPage: true })
    t.same(pageErrors(page), [], `${who}: no script errors`)
  }
  await signFromMail(admin, 'admin', 'payroll', 0)
  t.same(smtp.messages[0]!.to, ['admin@example.com'])
  await signFromMail(staff, 'staff', 'employee', 1)
  t.same(smtp.messages[1]!.to, ['staff@example.com'], 'the employee was invited after the payroll officer signed')

  const completion = (await smtp.waitFor(4)).slice(2)
  t.same(completion.map((m) => m.to[0]).sort(), ['admin@example.com', 'staff@example.com'])
  const download = await staff.request.get(linkIn(completion[0]!.text)!)
  t.equal(download.status(), 200, 'the completion\'s link downloads the signed PDF')
  t.equal(download.headers()['content-type'], 'application/pdf')
  t.match(download.headers()['content-disposition'], 'completed')

  const events = await receiver.waitFor(6)
  t.same(events.map((e) => e.json.type), ['session.created', 'session.request.opened', 'session.request.signed', 'session.request.opened', 'session.request.signed', 'session.completed'])
  t.ok(events.every((e) => e.signatureValid), 'every delivery verifies')
  t.ok(events.every((e) => e.json.data.session.id === session.id))
})
