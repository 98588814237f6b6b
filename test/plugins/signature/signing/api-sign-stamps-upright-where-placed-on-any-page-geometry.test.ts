// Issue 17: a box is measured on the page as displayed (CropBox clipped to MediaBox, after /Rotate,
// /UserUnit honoured). Through /api/sign, every page geometry gets its stamp inside the box given
// and upright, as poppler's pdftoppm -cropbox (what a viewer shows) renders it; the app's own page
// images show the same; a box past the displayed edge is refused with ERR_PLACEMENT_OFF_PAGE.
import t from 'tap'
import { buildTestApp, DEMO, login } from '../../../helpers/app.ts'
import { mupdfChangeHistory, pdfsig, qpdfCheck, quadrantInk, renderAsViewer } from '../../../fixtures/pdf/checkers.ts'
import { makeGeometryPdf, topLeftBox } from '../../../fixtures/pdf/geometry-pdf.ts'
import { makeCornerStampPng } from '../../../fixtures/pdf/stamp-image.ts'
import { csrfFor } from '../../../helpers/pages.ts'

t.setTimeout(240_000)

t.test('rotation x CropBox x UserUnit, and mixed page sizes: the stamp lands upright in its box', async (t) => {
  const app = await buildTestApp(t)
  const cookie = await login(app, DEMO.staff.email)
  const image = `data:image/png;base64,${makeCornerStampPng().toString('base64')}`
  const created = await app.inject({ method: 'POST', url: '/api/signatures', headers: { cookie, 'x-csrf-token': await csrfFor(app, cookie) }, payload: { label: 'Corner', image, certificate: { mode: 'issue' } } })
  t.equal(created.statusCode, 201, created.body)
  const signature = created.json().data.uuid
  const { bytes, pages } = await makeGeometryPdf()
  const pdf = Buffer.from(bytes).toString('base64')
  const sign = (placements: object[]) => app.inject({ method: 'POST', url: '/api/sign', headers: { cookie }, payload: { signature, pdf, placements } })

  // Past the right or the top edge of what is displayed, by a whole box: refused with the one code.
  for (const page of pages) {
    for (const [edge, box] of [
      ['right', { ...topLeftBox(page), x: page.width - 100 }],
      ['top', { ...topLeftBox(page), y: page.height - 20 }],
    ] as const) {
      const refused = await sign([box])
      const code = String(refused.headers['content-type']).startsWith('application/json') ? refused.json().code : `a ${refused.statusCode} with a signed PDF`
      t.equal(code, 'ERR_PLACEMENT_OFF_PAGE', `${page.name}: past the ${edge} edge`)
    }
  }

  const started = Date.now()
  const signed = await sign(pages.map(topLeftBox))
  t.equal(signed.statusCode, 200, signed.body.slice(0, 300))
  t.comment(`${pages.length} stamps, one signature: ${Date.now() - started} ms`)
  const { signatures } = await pdfsig(signed.rawPayload)
  t.equal(signatures[0]?.validation, 'Signature is Valid.')
  t.ok((await qpdfCheck(signed.rawPayload)).clean, 'qpdf --check')
  t.equal((await mupdfChangeHistory(signed.rawPayload)).verdict, 0, 'mupdf: no forbidden change')

  const uuid = signed.headers['x-signature-uuid']
  for (const page of pages) {
    const box = topLeftBox(page)
    const [topLeft, ...rest] = await quadrantInk(await renderAsViewer(signed.rawPayload, page.page, 144), page, box)
    t.ok(topLeft! > 0.5 && rest.every((ink) => ink < 0.02), `${page.name}: pdftoppm shows the stamp in its box, upright (ink by quadrant ${[topLeft, ...rest].map((n) => n!.toFixed(2)).join(' ')})`)
    const shown = await app.inject({ url: `/api/signatures/${uuid}/pages/${page.page}`, headers: { cookie, accept: 'application/json' } })
    // On failure the body is an error (JSON); on success it is PNG bytes, which must not reach the log.
    t.equal(shown.statusCode, 200, `${page.name}: the app's page image${shown.statusCode === 200 ? '' : ` (${shown.body.slice(0, 120)})`}`)
    if (shown.statusCode !== 200) continue
    const [tl, ...others] = await quadrantInk(shown.rawPayload, page, box)
    t.ok(tl! > 0.5 && others.every((ink) => ink < 0.02), `${page.name}: the app's page image shows it there too (${[tl, ...others].map((n) => n!.toFixed(2)).join(' ')})`)
  }
})
