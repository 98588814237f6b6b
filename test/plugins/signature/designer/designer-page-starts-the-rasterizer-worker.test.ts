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

// The first page image of a template costs a worker thread with mupdf on top of its sample and
// its render: the designer page starts the worker as it is served, so that it comes up on its own
// thread while the browser loads the page's scripts and the sample PDF is made.
t.test('serving the designer page starts a rasterizer worker; the first image uses it', async (t) => {
  const app = await buildTestApp(t)
  const cookie = await login(app, DEMO.admin.email)
  const images = app.signature.pageImages
  t.equal(images.stats.workers, 0, 'no rasterizer worker before the designer is opened')

  const page = await app.inject({ url: '/admin/signature-templates/payslip/design', headers: { cookie } })
  t.equal(page.statusCode, 200)
  await until(() => images.stats.workers === 1, 'a worker started')
  t.equal(images.stats.render, 0, 'nothing rendered before the browser asks')

  const image = await app.inject({ url: '/admin/signature-templates/payslip/design/pages/1', headers: { cookie } })
  t.equal(image.statusCode, 200)
  t.equal(image.headers['content-type'], 'image/png')
  t.same([images.stats.render, images.stats.workers], [1, 1], 'rendered by the worker the page started')

  await app.inject({ url: '/admin/signature-templates/payslip/design', headers: { cookie } })
  await new Promise((resolve) => setTimeout(resolve, 200))
  t.equal(images.stats.workers, 1, 'opening the designer again starts no second worker')
})

t.test('the page, its sizes and its first image asked at once: one sample, one render', async (t) => {
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

t.test('a template whose sample fails: the designer page still answers, the image request gives the error its code', async (t) => {
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
