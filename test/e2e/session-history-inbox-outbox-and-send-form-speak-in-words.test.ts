// Issue 39 items 10 and 11 in Chromium: the session page folds repeated openings and names people
// and parts by name and label, with the recorded trail behind Details; times read in the reader's
// zone; the Inbox names the part by its label; the Outbox says a mail was written to a file; the
// send form says a refused signer in words next to the field. Axe at 1280 and 390 px; screenshots.
import path from 'node:path'
import t, { type Test } from 'tap'
import type { Page } from 'playwright-core'
import { seriousAxeViolations } from '../helpers/axe.ts'
import { pageErrors, SCREENSHOTS, signedInPage, startBrowserSession } from '../helpers/browser.ts'

t.setTimeout(300_000)

const SIZES = [{ width: 1280, height: 860 }, { width: 390, height: 844 }]

async function checkAtBothSizes(t: Test, page: Page, name: string): Promise<void> {
  for (const size of SIZES) {
    await page.setViewportSize(size)
    t.same(await seriousAxeViolations(page), [], `axe: ${name} at ${size.width} px`)
    t.ok(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth), `${name}: no sideways scroll at ${size.width} px`)
    await page.screenshot({ path: path.join(SCREENSHOTS, `words-${name}-${size.width}.png`), fullPage: true })
  }
  await page.setViewportSize(SIZES[0]!)
}

t.test('the session page, the inbox, the outbox and the send form speak in words', async (t) => {
  const { baseUrl, browser } = await startBrowserSession(t)
  const admin = await signedInPage(browser, baseUrl, 'admin@example.com', { bypassCSP: true })
  const created = await admin.request.post('/api/signing-sessions', { data: { template: 'daily-time-record', signable: 'dtr-staff-2026-03', mode: 'parallel' } })
  t.equal(created.status(), 201)
  const session = (await created.json()).data as { id: string; requests: Array<{ slot: string; signerUrl: string }> }
  const staff = await signedInPage(browser, baseUrl, 'staff@example.com', { bypassCSP: true })
  const invitation = session.requests.find((r) => r.slot === 'employee')!.signerUrl
  for (let i = 0; i < 4; i++) {
    await staff.goto(invitation)
    await staff.locator('[data-marker="employee"]').waitFor()
  }

  await t.test('session page', async (t) => {
    await admin.goto(`/app/sessions/${session.id}`)
    const timeline = admin.locator('[data-timeline]')
    t.same(await timeline.locator('[data-event]').evaluateAll((items) => items.map((i) => [i.getAttribute('data-event'), i.getAttribute('data-again')])),
      [['created', null], ['opened', null], ['opened', '3']], 'four openings: one line and "again ×3"')
    t.match(await timeline.innerText(), /Sam Staff opened it again ×3 \(Employee\), last on/)
    const signers = await admin.locator('[data-signers]').innerText()
    t.match(signers, 'signs as Employee')
    t.notMatch(await admin.locator('main').innerText(), /\bUTC\b/, 'times in the reader\'s zone (the UTC fallback rewritten)')
    t.notOk(await admin.locator('[data-audit-trail]').evaluate((d: HTMLDetailsElement) => d.open), 'the recorded trail is closed')
    await admin.locator('[data-audit-trail] summary').click()
    t.equal(await admin.locator('[data-audit-event="opened"]').count(), 4, 'and holds every opening')
    await checkAtBothSizes(t, admin, 'session')
  })

  await t.test('sessions list', async (t) => {
    await admin.goto('/app/sessions')
    const sent = await admin.locator(`[data-session-link][href$="${session.id}"]`).locator('xpath=ancestor::tr').locator('time').innerText()
    t.notMatch(sent, /UTC|T\d\d:/, `the time in the reader's zone (${sent})`)
    await checkAtBothSizes(t, admin, 'sessions')
  })

  await t.test('inbox', async (t) => {
    await staff.goto('/app/inbox')
    t.equal(await staff.locator('[data-inbox] [data-part]').innerText(), 'Employee', 'the part by its label')
    t.equal(await staff.locator('[data-inbox] code').count(), 0, 'no slot key in monospace')
    await checkAtBothSizes(t, staff, 'inbox')
  })

  await t.test('outbox', async (t) => {
    await admin.goto('/admin/outbox')
    await admin.locator('[data-message]').first().waitFor()
    for (let i = 0; i < 50 && !(await admin.locator('[data-written-to-file]').count()); i++) await admin.reload()
    t.ok(await admin.locator('[data-written-to-file]').count() > 0, 'a mail written to a file says so')
    t.notMatch(await admin.locator('[data-outbox]').innerText(), /^\s*sent\s*$/m, 'not "sent"')
    await checkAtBothSizes(t, admin, 'outbox')
  })

  await t.test('send form', async (t) => {
    await admin.goto('/app/sessions/new?template=contract&signable=contract-staff')
    await admin.getByLabel(/Witness/).selectOption({ label: 'Sam Staff' })
    await admin.getByRole('button', { name: 'Send for signature' }).click()
    const error = admin.locator('#send-signer-witness-error')
    await error.waitFor()
    t.equal(await error.innerText(), 'Sam Staff already signs “Employee”, and one person signs one part of this document: choose someone else.')
    t.notMatch(await admin.locator('main').innerText(), /u-staff|may not sign both/, 'no id, no API words, until Details is opened')
    await checkAtBothSizes(t, admin, 'send-form')
  })
  t.same(pageErrors(admin), [])
  t.same(pageErrors(staff), [])
})
