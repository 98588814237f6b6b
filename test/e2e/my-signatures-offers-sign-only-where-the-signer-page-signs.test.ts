// Issue 39, item 3: My signatures offered admins "Sign" on other people's records (they may see
// them all), which ended in 403 "You have no slot to sign on this record". The list now offers
// "Sign" only where the signer page will let the user sign (the same rule its finalize refuses
// by): every link shown opens, and every record without one is refused by the signer page.
import t from 'tap'
import { seriousAxeViolations } from '../helpers/axe.ts'
import { pageErrors, signedInPage, startBrowserSession } from '../helpers/browser.ts'

t.setTimeout(180_000)

t.test('admin: a Sign link on the records they have a slot on, none elsewhere', async (t) => {
  const { baseUrl, browser } = await startBrowserSession(t)
  const page = await signedInPage(browser, baseUrl, 'admin@example.com', { bypassCSP: true })
  await page.goto('/app/my-signatures')
  await page.locator('[data-records] [data-record]').first().waitFor()
  const rows = await page.locator('[data-records] li[data-record]').evaluateAll((items) => items.map((li) => ({
    record: li.getAttribute('data-record'),
    title: li.querySelector('span')?.textContent,
    sign: li.querySelector<HTMLAnchorElement>('[data-sign-link]')?.getAttribute('href') ?? null,
  })))
  const withLink = rows.filter((r) => r.sign)
  const without = rows.filter((r) => !r.sign)
  t.ok(withLink.length > 0, `some records are the admin's to sign (${withLink.map((r) => r.title).join(', ')})`)
  t.ok(without.length > 0, `some are not (${without.map((r) => r.title).join(', ')})`)
  t.ok(withLink.every((r) => !r.title!.startsWith('Daily time record - Sam Staff')), 'nothing to sign on a record of Sam\'s where Ada has no slot')
  for (const { sign, title } of withLink) {
    const opened = await page.request.get(sign!)
    t.equal(opened.status(), 200, `${title}: the link opens the signer page`)
  }
  // Each record without a link is one the signer page refuses (the links' own shape, with "new").
  const signer = (record: string, template: string) => `/app/signature-templates/${template}/sign/new?signable=${encodeURIComponent(record)}`
  const templateOf = (record: string) => record.startsWith('dtr-') ? 'daily-time-record' : record.startsWith('payslip-') ? 'payslip' : 'contract'
  for (const { record, title } of without) {
    const refused = await page.request.get(signer(record!, templateOf(record!)))
    t.equal(refused.status(), 403, `${title}: refused by the signer page, so not offered`)
  }
  t.same(await seriousAxeViolations(page), [])
  t.same(pageErrors(page), [])
})
