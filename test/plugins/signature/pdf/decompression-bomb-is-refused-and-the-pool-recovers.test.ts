import { readdir } from 'node:fs/promises'
import t from 'tap'
import { makePdf } from '../../../fixtures/pdf/make-pdf.ts'
import { objectStreamBomb } from '../../../fixtures/pdf/malformed-pdf.ts'
import { createPdfWorkerPool } from '../../../../plugins/signature/pdf-worker-pool.ts'

// The documented setting, read from the environment by config/signature.ts when the app loads.
process.env.SIGNATURE_PDF_DECODED_MB = '8'
const { buildTestApp, DEMO } = await import('../../../helpers/app.ts')
const { signerWithSignature } = await import('../signing/helpers.ts')

// 256 MiB of zeros in an object stream: about 260 KB of file.
const bomb = await objectStreamBomb(256 * 1024 * 1024)
const box = { page: 1, x: 300, y: 200, width: 200, height: 80 }

t.test('/api/sign refuses a decompression bomb with 413 ERR_PDF_DECODED_TOO_LARGE, quickly, and writes nothing', async (t) => {
  const app = await buildTestApp(t)
  const staff = await signerWithSignature(app, DEMO.staff.email)
  const sign = (pdf: Uint8Array) => app.inject({ method: 'POST', url: '/api/sign', headers: { cookie: staff.cookie }, payload: { signature: staff.signature, pdf: Buffer.from(pdf).toString('base64'), placements: [box] } })
  t.ok(bomb.length < 1024 * 1024, `${Math.round(bomb.length / 1024)} KB on the wire`)
  const baseline = process.memoryUsage().rss
  let peak = baseline
  const sampler = setInterval(() => { peak = Math.max(peak, process.memoryUsage().rss) }, 20)
  const started = performance.now()
  const refused = await sign(bomb)
  const took = performance.now() - started
  clearInterval(sampler)
  t.equal(refused.statusCode, 413, refused.body.slice(0, 200))
  t.equal(refused.json().code, 'ERR_PDF_DECODED_TOO_LARGE')
  t.match(refused.json().message, /8 MiB/)
  t.ok(took < 10_000, `refused in ${took.toFixed(0)} ms`)
  t.ok(peak - baseline < 256 * 1024 * 1024, `RSS grew by ${Math.round((peak - baseline) / 1024 / 1024)} MB at most`)
  const signedDir = app.signature.disk.path('signed')
  t.same(await readdir(signedDir).catch(() => []), [], 'no signed file was written')
  const ok = await sign(await makePdf())
  t.equal(ok.statusCode, 200, 'the PDF worker signs the next document')
})

t.test('a task past its time limit is 422 ERR_PDF_TOO_COMPLEX; the worker is replaced and the pool keeps working', async (t) => {
  const pool = createPdfWorkerPool({ size: 1, limits: { maxDecodedBytes: 2 * 1024 ** 3, taskTimeoutMs: 400 } })
  t.teardown(() => pool.close())
  t.equal((await pool.run('inspectPdf', await makePdf())).pageCount, 1, 'warm')
  const started = performance.now()
  await t.rejects(pool.run('inspectPdf', bomb), { code: 'ERR_PDF_TOO_COMPLEX', statusCode: 422 })
  t.ok(performance.now() - started < 5_000, `stopped after ${(performance.now() - started).toFixed(0)} ms`)
  t.equal((await pool.run('inspectPdf', await makePdf({ pages: 2 }))).pageCount, 2, 'a fresh worker answers')
})
