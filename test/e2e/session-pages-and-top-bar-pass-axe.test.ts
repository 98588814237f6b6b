// The pages issue 20 added or changed (top bar, sessions list, send form, session page, My
// signatures' documents) have no serious or critical axe-core violation, at desktop and phone size.
import t from 'tap'
import { seriousAxeViolations } from '../helpers/axe.ts'
import { signedInPage, startBrowserSession } from '../helpers/browser.ts'

t.setTimeout(180_000)

t.test('axe-core: no serious or critical violation on the session pages and the top bar', async (t) => {
  const { baseUrl, browser, app } = await startBrowserSession(t)
  const admin = await signedInPage(browser, baseUrl, 'admin@example.com', { bypassCSP: true })
  const created = await admin.request.post('/api/signing-sessions', { data: { template: 'daily-time-record', signable: 'dtr-staff-2026-03', mode: 'sequential' } })
  t.equal(created.status(), 201)
  const session = (await created.json()).data as { id: string; requests: Array<{ id: string; slot: string }> }
  const staff = await signedInPage(browser, baseUrl, 'staff@example.com', { bypassCSP: true })
  const declined = await staff.request.post(`/api/signing-sessions/${session.id}/requests/${session.requests.find((r) => r.slot === 'employee')!.id}/decline`, { data: { reason: 'Wrong month' }, headers: { 'x-csrf-token': await staff.evaluate(() => document.querySelector('meta[name="csrf-token"]')!.getAttribute('content')!) } })
  t.equal(declined.status(), 200)
  t.ok(app)

  const pages: Array<[typeof admin, string]> = [
    [admin, '/dashboard'], [admin, '/app/sessions'], [admin, '/app/sessions/new?template=contract&signable=contract-staff'],
    [admin, `/app/sessions/${session.id}`], [admin, '/admin/signature-templates'], [staff, '/dashboard'], [staff, '/app/my-signatures'], [staff, '/app/inbox'],
  ]
  for (const size of [{ width: 1366, height: 900 }, { width: 390, height: 844 }]) {
    for (const [page, url] of pages) {
      await page.setViewportSize(size)
      await page.goto(url)
      await page.waitForLoadState('networkidle')
      t.same(await seriousAxeViolations(page), [], `${url} at ${size.width} px`)
    }
  }
})
