import t from 'tap'
import { buildTestApp, DEMO, login } from '../../../helpers/app.ts'

// A browser that cached page images of a longer sample still sends If-None-Match for pages the
// sample no longer has: that is a 404, as without the header, for both kinds of page source.
t.test('a page past the last one is 404 ERR_PAGE_NOT_FOUND, with or without If-None-Match', async (t) => {
  const app = await buildTestApp(t)
  const cookie = await login(app, DEMO.admin.email)
  // contract: the template's own images (2 pages); payslip: a sample PDF through the rasterizer (1 page).
  for (const [template, page] of [['contract', 3], ['payslip', 2], ['contract', 99_999], ['payslip', 99_999]] as const) {
    const url = `/admin/signature-templates/${template}/design/pages/${page}`
    for (const ifNoneMatch of [undefined, '"0123456789012345678901234567890123456789"', '*']) {
      const response = await app.inject({ url, headers: { cookie, accept: 'application/json', ...(ifNoneMatch ? { 'if-none-match': ifNoneMatch } : {}) } })
      t.equal(response.statusCode, 404, `${template} page ${page}, If-None-Match ${ifNoneMatch ?? '(none)'}: ${response.body.slice(0, 160)}`)
      t.equal(response.json().code, 'ERR_PAGE_NOT_FOUND')
    }
  }
})
