// Clicking only, in Chromium: the admin opens Webhooks from the sidebar, adds an endpoint (a real
// receiver started here), sees its secret once, opens it, sends a test event, redelivers it and
// reads the delivery log; then opens Outbox and finds the invitation written as .eml (no SMTP_URL).
import path from 'node:path'
import t from 'tap'
import { startWebhookPeer } from '../helpers/delivery-peers.ts'
import { pageErrors, SCREENSHOTS, signedInPage, startBrowserSession } from '../helpers/browser.ts'

t.setTimeout(180_000)
// The receiver listens on 127.0.0.1; this app (buildApp reads the environment) allows that.
process.env.WEBHOOKS_ALLOW_PRIVATE = 'true'

t.test('webhook page and outbox page, by clicking', async (t) => {
  const receiver = await startWebhookPeer(t)
  const { baseUrl, browser } = await startBrowserSession(t)
  const page = await signedInPage(browser, baseUrl, 'admin@example.com')
  await page.goto('/admin')
  await Promise.all([page.waitForURL('**/admin/webhooks'), page.locator('.sidebar-link', { hasText: 'Webhooks' }).click()])
  await page.getByLabel('URL').fill('ftp://example.com/')
  await page.locator('[data-webhook-form] input[name="url"]').evaluate((input: HTMLInputElement) => { input.type = 'text' })
  await page.getByRole('button', { name: 'Add endpoint' }).click()
  await page.locator('[data-error-code="ERR_WEBHOOK_URL_INVALID"]').waitFor()
  await page.getByLabel('URL').fill(receiver.url)
  await page.getByLabel('Description').fill('Receiver of the test')
  await page.getByRole('button', { name: 'Add endpoint' }).click()
  const secret = await page.locator('[data-webhook-secret]').innerText()
  t.match(secret, /^whsec_/, 'the secret is shown once')
  receiver.useSecret(secret)
  await page.screenshot({ path: path.join(SCREENSHOTS, 'webhook-added.png'), fullPage: true })

  await Promise.all([page.waitForURL(/\/admin\/webhooks\/[0-9a-f-]{36}$/), page.getByRole('link', { name: 'Open the endpoint' }).click()])
  t.notOk((await page.content()).includes(secret), 'and not on the endpoint page')
  await Promise.all([page.waitForNavigation(), page.getByRole('button', { name: 'Send test event' }).click()])
  const [test] = await receiver.waitFor(1)
  t.equal(test!.json.type, 'webhook.test')
  t.ok(test!.signatureValid, 'signed with the secret shown')
  // The log shows the delivery once it is recorded; reload as a person would.
  for (let i = 0; i < 50 && !(await page.locator('[data-delivery][data-status="sent"]').count()); i++) await page.reload()
  t.equal(await page.locator('[data-delivery][data-status="sent"]').count(), 1, 'the log shows it sent')
  await Promise.all([page.waitForNavigation(), page.getByRole('button', { name: 'Redeliver' }).click()])
  const [, again] = await receiver.waitFor(2)
  t.equal(again!.headers['webhook-id'], test!.headers['webhook-id'], 'redelivered with the same id')
  for (let i = 0; i < 50 && (await page.locator('[data-delivery][data-status="sent"]').count()) < 2; i++) await page.reload()
  t.equal(await page.locator('[data-delivery][data-status="sent"]').count(), 2)
  await page.screenshot({ path: path.join(SCREENSHOTS, 'webhook-delivery-log.png'), fullPage: true })

  // A session makes an invitation; without SMTP_URL it becomes an .eml listed on the Outbox page.
  const created = await page.request.post('/api/signing-sessions', { data: { template: 'payslip', signable: 'payslip-staff-2026-03' } })
  t.equal(created.status(), 201)
  await Promise.all([page.waitForURL('**/admin/outbox'), page.locator('.sidebar-link', { hasText: 'Outbox' }).click()])
  for (let i = 0; i < 50 && !(await page.locator('[data-message][data-status="sent"]').count()); i++) await page.reload()
  t.match(await page.locator('[data-message][data-status="sent"]').first().innerText(), 'Please sign: ')
  t.equal(await page.locator('[data-eml-link]').count(), 1, 'with a link to its .eml file')
  await page.screenshot({ path: path.join(SCREENSHOTS, 'admin-outbox.png'), fullPage: true })
  t.same(pageErrors(page).filter((e) => !/status of 422/.test(e)), [], 'no script errors')
})
