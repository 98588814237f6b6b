import path from 'node:path'
import t from 'tap'
import { pageErrors, SCREENSHOTS, signedInPage, startBrowserSession } from '../helpers/browser.ts'

// The daily time record is US Letter landscape: 792 x 612 pt.
const PAGE_PT = { width: 792, height: 612 }

interface Meta { pages: Array<{ page: number; width: number; height: number }>; slots: Array<{ key: string; page: number; x: number; y: number; width: number; height: number; saved: boolean }> }

t.test('admin drags the employee box, saves, reloads: the box stays where it was dropped, in points', async (t) => {
  const { baseUrl, browser } = await startBrowserSession(t)
  const page = await signedInPage(browser, baseUrl, 'admin@example.com')
  await page.goto('/admin/signature-templates')
  await Promise.all([page.waitForURL('**/daily-time-record/design'), page.locator('[data-template="daily-time-record"] [data-designer-link]').click()])

  const image = page.locator('[data-page-image]')
  const box = page.locator('[data-slot-box="employee"]')
  await box.waitFor({ state: 'visible', timeout: 60_000 })
  const metaUrl = (await page.locator('[data-designer]').getAttribute('data-meta-url'))!
  const before = (await (await page.request.get(metaUrl)).json()) as Meta
  t.same(before.pages, [{ page: 1, ...PAGE_PT }])
  t.same(before.slots.find((s) => s.key === 'employee'), { key: 'employee', label: 'Employee', required: true, page: 1, x: 72, y: 66, width: 240, height: 48, saved: false, default: { page: 1, x: 72, y: 66, width: 240, height: 48 } })
  t.match(await page.locator('[data-slot-row="employee"] [data-slot-state]').innerText(), 'at defaults')

  const img = (await image.boundingBox())!
  const start = (await box.boundingBox())!
  const scale = img.width / PAGE_PT.width
  t.ok(Math.abs(start.x - img.x - 72 * scale) <= 1, 'the default box is drawn at x 72 pt')

  // Drop the box's top-left corner at 40 % across and 25 % down the shown page.
  const target = { left: Math.round(img.width * 0.4), top: Math.round(img.height * 0.25) }
  const grab = { x: start.x + 30, y: start.y + start.height / 2 }
  await page.mouse.move(grab.x, grab.y)
  await page.mouse.down()
  await page.mouse.move(grab.x + 40, grab.y - 20, { steps: 4 })
  await page.mouse.move(img.x + target.left + 30, img.y + target.top + start.height / 2, { steps: 12 })
  await page.mouse.up()
  const dropped = (await box.boundingBox())!
  t.ok(Math.abs(dropped.x - (img.x + target.left)) <= 1 && Math.abs(dropped.y - (img.y + target.top)) <= 1, 'the box follows the pointer')
  t.match(await page.locator('[data-slot-row="employee"] [data-slot-state]').innerText(), 'unsaved changes')

  // What the drop means in points, computed here from the page size alone (y from the bottom).
  const expected = { x: target.left / scale, y: PAGE_PT.height - (target.top + start.height) / scale }

  await page.locator('[data-save-slot="employee"]').click()
  await page.locator('[data-slot-feedback="employee"]', { hasText: 'Saved' }).waitFor()
  t.match(await page.locator('[data-slot-row="employee"] [data-slot-state]').innerText(), 'saved')
  await page.screenshot({ path: path.join(SCREENSHOTS, 'designer-daily-time-record-saved.png'), fullPage: true })

  await page.reload()
  await box.waitFor({ state: 'visible' })
  const reloadedImg = (await image.boundingBox())!
  const reloaded = (await box.boundingBox())!
  t.ok(Math.abs(reloaded.x - reloadedImg.x - target.left) <= 1, `after reload the box is at the same left (${reloaded.x - reloadedImg.x} vs ${target.left})`)
  t.ok(Math.abs(reloaded.y - reloadedImg.y - target.top) <= 1, `after reload the box is at the same top (${reloaded.y - reloadedImg.y} vs ${target.top})`)
  t.match(await page.locator('[data-slot-row="employee"] [data-slot-state]').innerText(), 'saved')

  const after = (await (await page.request.get(metaUrl)).json()) as Meta
  const saved = after.slots.find((s) => s.key === 'employee')!
  t.equal(saved.saved, true)
  t.ok(Math.abs(saved.x - expected.x) <= 1, `x ${saved.x} pt matches the drop (${expected.x.toFixed(2)} pt) within 1 pt`)
  t.ok(Math.abs(saved.y - expected.y) <= 1, `y ${saved.y} pt matches the drop (${expected.y.toFixed(2)} pt) within 1 pt`)
  t.same([saved.width, saved.height, saved.page], [240, 48, 1], 'a move keeps the size')
  t.equal(after.slots.find((s) => s.key === 'supervisor')!.saved, false, 'the supervisor was not touched')

  // Keyboard: Shift+ArrowUp raises the selected box by 10 pt (unsaved until saved).
  await box.focus()
  await page.keyboard.press('Shift+ArrowUp')
  await page.keyboard.press('ArrowRight')
  t.match(await page.locator('[data-slot-row="employee"] .designer-slot-coords').innerText(), `x ${Math.round((saved.x + 1) * 100) / 100}, y ${Math.round((saved.y + 10) * 100) / 100}`)
  t.match(await page.locator('[data-slot-row="employee"] [data-slot-state]').innerText(), 'unsaved changes')
  await page.screenshot({ path: path.join(SCREENSHOTS, 'designer-daily-time-record-reloaded.png'), fullPage: true })
  t.same(pageErrors(page), [])
})

t.test('the contract: a page selector, its own images, boxes on page 2, a slot moved to page 1 and saved there', async (t) => {
  const { baseUrl, browser } = await startBrowserSession(t)
  const page = await signedInPage(browser, baseUrl, 'admin@example.com')
  await page.goto('/admin/signature-templates/contract/design')
  const employer = page.locator('[data-slot-box="employer"]')
  await employer.waitFor({ state: 'visible', timeout: 60_000 })
  const select = page.locator('[data-page-select]')
  t.equal(await select.inputValue(), '2', 'opens on the page of the first slot')
  t.equal(await page.locator('[data-slot-box]').count(), 3, 'employer, employee and the optional witness')
  const img = (await page.locator('[data-page-image]').boundingBox())!
  // A4 portrait from the template's own 72 DPI image: 595 x 842 pt.
  t.ok(Math.abs(img.height / img.width - 842 / 595) < 0.01, 'the page keeps its proportions')
  await page.screenshot({ path: path.join(SCREENSHOTS, 'designer-contract-page-2.png'), fullPage: true })

  await select.selectOption('1')
  await page.locator('[data-page-image][src$="/pages/1"]').waitFor()
  t.equal(await page.locator('[data-slot-box]:visible').count(), 0, 'no slot sits on page 1')
  await page.locator('[data-slot-row="employer"]').getByRole('button', { name: 'Move to page 1' }).click()
  await employer.waitFor({ state: 'visible' })
  await page.locator('[data-save-all]').click()
  // Save all posts only what changed: the employer; the others stay at their defaults.
  await page.locator('[data-save-all-feedback]', { hasText: 'Saved 1 slot: For the employer.' }).waitFor()
  const metaUrl = (await page.locator('[data-designer]').getAttribute('data-meta-url'))!
  const meta = (await (await page.request.get(metaUrl)).json()) as Meta
  t.same(meta.slots.map((s) => [s.key, s.page, s.saved]), [['employer', 1, true], ['employee', 2, false], ['witness', 2, false]])
  // Focusing the moved box scrolled the page; a full-page shot from there draws the sticky top bar mid-page.
  await page.evaluate(() => window.scrollTo(0, 0))
  await page.screenshot({ path: path.join(SCREENSHOTS, 'designer-contract-moved-to-page-1.png'), fullPage: true })
  t.same(pageErrors(page), [])
})
