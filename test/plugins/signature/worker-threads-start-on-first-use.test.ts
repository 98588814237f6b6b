// A booted app has started no PDF or page-image worker thread (each costs tens of MiB and
// ~0.3 s of start-up, and many instances never sign anything); the first task starts one
// and is answered, and the pool reuses it for the next.
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import t from 'tap'
import { buildTestApp, DEMO, login } from '../../helpers/app.ts'
import { makePdf } from '../../fixtures/pdf/make-pdf.ts'

t.test('no worker after boot and a first page; the first PDF task starts one and works', async (t) => {
  const app = await buildTestApp(t)
  const cookie = await login(app, DEMO.admin.email)
  // Pages that list templates and signatures need no worker either.
  for (const url of ['/admin/users', '/app/my-signatures', '/api/users']) {
    const response = await app.inject({ url, headers: { cookie } })
    t.equal(response.statusCode, 200, url)
  }
  t.equal(app.signature.pdf.stats.workers, 0, 'no PDF worker at boot')
  t.equal(app.signature.pageImages.stats.workers, 0, 'no rasterizer worker at boot')

  const bytes = await makePdf({ pages: 2 })
  const summary = await app.signature.pdf.run('inspectPdf', bytes)
  t.equal(summary.pages.length, 2, 'the first PDF task is answered')
  t.equal(app.signature.pdf.stats.workers, 1, 'by one worker, started for it')
  await app.signature.pdf.run('inspectPdf', bytes)
  t.equal(app.signature.pdf.stats.workers, 1, 'and reused for the next')

  const dir = await mkdtemp(path.join(tmpdir(), 'first-use-'))
  t.teardown(() => rm(dir, { recursive: true, force: true }))
  const file = path.join(dir, 'two.pdf')
  await writeFile(file, bytes)
  const sizes = await app.signature.pageImages.pages(file)
  t.equal(sizes.length, 2, 'the first page-image task is answered')
  t.equal(app.signature.pageImages.stats.workers, 1)
})
