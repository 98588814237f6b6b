import t from 'tap'
import { ERR_UNAVAILABLE } from '../../../../core/http/errors.ts'
import { buildTestApp, DEMO, login } from '../../../helpers/app.ts'

async function until(check: () => boolean, what: string, ms = 30_000): Promise<void> {
  const deadline = Date.now() + ms
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`not within ${ms} ms: ${what}`)
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
}

// The first page image of a template costs its sample PDF, a worker thread with mupdf and a
// render: the designer page starts them as it is served, so they run while the browser loads the
// page's scripts, and the browser's own requests find the work done or join it.
t.test('serving the designer page renders its first page image before the browser asks for it', async (t) => {
  const app = await buildTestApp(t)
  const cookie = await login(app, DEMO.admin.email)
  const images = app.signature.pageImages
  t.equal(images.stats.workers, 0, 'no rasterizer worker before the designer is opened')

  const page = await app.inject({ url: '/admin/signature-templates/payslip/design', headers: { cookie } })
  t.equal(page.statusCode, 200)
  await until(() => images.stats.render === 1, 'page 1 rendered')
  t.equal(images.stats.workers, 1, 'the worker is up')

  const image = await app.inject({ url: '/admin/signature-templates/payslip/design/pages/1', headers: { cookie } })
  t.equal(image.statusCode, 200)
  t.equal(image.headers['content-type'], 'image/png')
  t.same([images.stats.render, images.stats.memory], [1, 1], 'the browser\'s request is a memory hit')
})

t.test('the browser asking at once joins the warm-up: one sample, one geometry task, one render', async (t) => {
  const app = await buildTestApp(t)
  const cookie = await login(app, DEMO.admin.email)
  const template = app.signature.registry.get('payslip')
  let samples = 0
  const renderSample = template.renderSample.bind(template)
  // Counts calls through to the real renderer; nothing is replaced.
  template.renderSample = () => { samples++; return renderSample() }

  const base = '/admin/signature-templates/payslip/design'
  const [page, meta, image] = await Promise.all([
    app.inject({ url: base, headers: { cookie } }),
    app.inject({ url: `${base}/meta`, headers: { cookie } }),
    app.inject({ url: `${base}/pages/1`, headers: { cookie } }),
  ])
  t.same([page.statusCode, meta.statusCode, image.statusCode], [200, 200, 200])
  t.equal(samples, 1, 'the sample PDF rendered once for three requests')
  t.equal(app.signature.pageImages.stats.render, 1, 'one render')
})

t.test('a designer whose warm-up fails still answers, and the image request gives the error its code', async (t) => {
  const app = await buildTestApp(t)
  const cookie = await login(app, DEMO.admin.email)
  const template = app.signature.registry.get('payslip')
  template.renderSample = async () => { throw ERR_UNAVAILABLE('the sample renderer is down') }
  const page = await app.inject({ url: '/admin/signature-templates/payslip/design', headers: { cookie } })
  t.equal(page.statusCode, 200)
  const image = await app.inject({ url: '/admin/signature-templates/payslip/design/pages/1', headers: { cookie, accept: 'application/json' } })
  t.equal(image.statusCode, 503)
  t.equal(image.json().code, 'ERR_UNAVAILABLE')
})
