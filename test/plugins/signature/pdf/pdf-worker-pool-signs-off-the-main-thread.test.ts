import { performance } from 'node:perf_hooks'
import t from 'tap'
import { readP12 } from '../../../../plugins/signature/certificates/index.ts'
import { createPdfWorkerPool } from '../../../../plugins/signature/pdf-worker-pool.ts'
import { pdfsig } from '../../../fixtures/pdf/checkers.ts'
import { makePdf } from '../../../fixtures/pdf/make-pdf.ts'
import { makeStampPng } from '../../../fixtures/pdf/stamp-image.ts'
import { testUserCertificate } from '../../../fixtures/pdf/test-certificates.ts'

const app = testUserCertificate('Pool Application')
const signer = testUserCertificate('Pool Signer')
const image = makeStampPng()
const pool = createPdfWorkerPool({ size: 2, maxQueue: 8 })
t.teardown(() => pool.close())

t.test('a session run through the pool produces valid signatures', async (t) => {
  const slot = { name: 'client', page: 1, x: 50, y: 50, width: 200, height: 80 }
  const frozen = await pool.run('freezeDocument', await makePdf(), { fields: [slot], signer: app })
  // A KeyObject crosses the thread boundary too, so a certificate can be opened once.
  const signed = await pool.run('signField', frozen, { fieldName: 'client', image, signer: readP12(signer.p12, signer.password) })
  const signatures = (await pdfsig(signed)).signatures
  t.equal(signatures.length, 2)
  t.ok(signatures.every((s) => s.valid))
  t.same((await pool.run('inspectPdf', signed)).signatureFields.map((f) => f.signed), [true, true])
})

t.test('typed errors keep their code and status across the thread boundary', async (t) => {
  await t.rejects(pool.run('normalizePdf', Buffer.from('not a pdf')), { code: 'ERR_PDF_INVALID', statusCode: 422, name: 'AppError' })
  await t.rejects(pool.run('signDocument', await makePdf(), { stamps: [], signer: { p12: app.p12, password: 'wrong' } }), { code: 'ERR_P12_PASSWORD' })
})

t.test('while workers sign 100-page documents, the main thread stays idle', async (t) => {
  // Event-loop utilisation (busy time / wall time of this thread) rather than event-loop delay:
  // on a shared 2-core machine the delay mostly measures other processes taking the CPU.
  const big = await makePdf({ pages: 100 })
  const stamps = [{ page: 100, x: 50, y: 50, width: 200, height: 80, image }]
  const options = { stamps, signer: app, certify: {} }
  const utilisation = async (work: () => Promise<unknown>) => {
    const before = performance.eventLoopUtilization()
    await work()
    return performance.eventLoopUtilization(before).utilization
  }
  const { signDocument } = await import('../../../../plugins/signature/pdf/index.ts')
  const inline = await utilisation(async () => {
    for (let i = 0; i < 4; i++) await signDocument(big, options)
  })
  let results: Uint8Array[] = []
  const pooled = await utilisation(async () => {
    results = await Promise.all(Array.from({ length: 4 }, () => pool.run('signDocument', big, options)))
  })
  t.ok(inline > 0.7, `control: signing on the main thread keeps it ${(inline * 100).toFixed(0)} % busy`)
  t.ok(pooled < 0.35, `through the pool the main thread is ${(pooled * 100).toFixed(0)} % busy`)
  t.equal(results.length, 4)
  t.equal((await pdfsig(results[3]!)).signatures[0]?.validation, 'Signature is Valid.')
})

t.test('beyond the queue bound, work is refused with ERR_PDF_WORKERS_BUSY (503)', async (t) => {
  const small = createPdfWorkerPool({ size: 1, maxQueue: 1 })
  t.teardown(() => small.close())
  const pdf = await makePdf({ pages: 20 })
  const first = small.run('normalizePdf', pdf)
  const second = small.run('normalizePdf', pdf)
  await t.rejects(small.run('normalizePdf', pdf), { code: 'ERR_PDF_WORKERS_BUSY', statusCode: 503 })
  t.ok((await first).length > 0)
  t.ok((await second).length > 0, 'queued work still completes')
})
