import { readFile } from 'node:fs/promises'
import t from 'tap'
import { rendersSamplePageImage } from '../../../../plugins/signature/contracts/renders-sample-page-image.ts'
import { buildTestApp, DEMO, login } from '../../../helpers/app.ts'

const pngSize = (png: Buffer) => ({ width: png.readUInt32BE(16), height: png.readUInt32BE(20) })

t.test('a rasterized page: PNG at designer.dpi with an ETag, 304 on If-None-Match, 404 past the last page', async (t) => {
  const app = await buildTestApp(t)
  const cookie = await login(app, DEMO.admin.email)
  const url = '/admin/signature-templates/payslip/design/pages/1'
  const first = await app.inject({ url, headers: { cookie } })
  t.equal(first.statusCode, 200)
  t.equal(first.headers['content-type'], 'image/png')
  t.equal(first.headers['cache-control'], 'private, no-cache')
  const etag = first.headers.etag as string
  t.match(etag, /^"[0-9a-f]{40}"$/)
  // A4 (595.28 x 841.89 pt) at 144 DPI.
  t.same(pngSize(first.rawPayload), { width: 1191, height: 1684 })

  const loadsBefore = { ...app.signature.pageImages.stats }
  const again = await app.inject({ url, headers: { cookie, 'if-none-match': etag } })
  t.equal(again.statusCode, 304)
  const loadsAfter = app.signature.pageImages.stats
  t.same([loadsAfter.memory, loadsAfter.disk, loadsAfter.render], [loadsBefore.memory, loadsBefore.disk, loadsBefore.render], 'a 304 takes no image from memory, disk or the rasterizer')
  t.equal(again.headers['cache-control'], 'private, no-cache')
  t.equal(again.rawPayload.length, 0)
  t.equal(again.headers.etag, etag)
  t.equal((await app.inject({ url, headers: { cookie, 'if-none-match': '"something-else"' } })).statusCode, 200)
  t.equal(app.signature.pageImages.stats.render, 1, 'rendered once, then served from memory')

  for (const n of ['2', '0', 'x']) {
    const response = await app.inject({ url: `/admin/signature-templates/payslip/design/pages/${n}`, headers: { cookie, accept: 'application/json' } })
    t.equal(response.statusCode, n === '2' ? 404 : 400, `page ${n}`)
  }
})

t.test('a template with its own page images (the contract): served as they are, page sizes from their pixels', async (t) => {
  const app = await buildTestApp(t)
  const cookie = await login(app, DEMO.admin.email)
  const contract = app.signature.registry.get('contract')
  t.ok(rendersSamplePageImage(contract))
  if (!rendersSamplePageImage(contract)) return
  const renders = app.signature.pageImages.stats.render

  const meta = (await app.inject({ url: '/admin/signature-templates/contract/design/meta', headers: { cookie } })).json() as { pages: unknown[] }
  const own = await readFile(await contract.renderSampleAsImage(2))
  t.same(meta.pages, [{ page: 1, ...pngSize(await readFile(await contract.renderSampleAsImage(1))) }, { page: 2, ...pngSize(own) }])
  t.same(meta.pages[1], { page: 2, width: 595, height: 842 }, 'A4 at 72 DPI: one pixel per point')

  const url = '/admin/signature-templates/contract/design/pages/2'
  const image = await app.inject({ url, headers: { cookie } })
  t.equal(image.statusCode, 200)
  t.equal(image.headers['content-type'], 'image/png')
  t.ok(image.rawPayload.equals(own), 'the template\'s own image, byte for byte')
  t.equal((await app.inject({ url, headers: { cookie, 'if-none-match': image.headers.etag as string } })).statusCode, 304)
  t.equal((await app.inject({ url: '/admin/signature-templates/contract/design/pages/3', headers: { cookie, accept: 'application/json' } })).statusCode, 404)
  t.equal(app.signature.pageImages.stats.render, renders, 'the rasterizer was never used')
})
