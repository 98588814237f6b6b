import t from 'tap'
import { isAppError } from '../../../../core/http/errors.ts'
import { createPdfWorkerPool } from '../../../../plugins/signature/pdf-worker-pool.ts'
import { buildTestApp, DEMO } from '../../../helpers/app.ts'
import { pdfsig, qpdfCheck } from '../../../fixtures/pdf/checkers.ts'
import { malformedPdfs, onePagePdf } from '../../../fixtures/pdf/malformed-pdf.ts'
import { signerWithSignature } from './helpers.ts'

t.test('POST /api/sign: each malformed PDF is 422 ERR_PDF_INVALID naming the fault, or signed into a sound file', async (t) => {
  const app = await buildTestApp(t)
  const staff = await signerWithSignature(app, DEMO.staff.email)
  const box = { page: 1, x: 300, y: 200, width: 200, height: 80 }
  const cases: Record<string, Buffer> = {
    ...malformedPdfs(),
    'a page without /MediaBox, inherited from /Pages': onePagePdf({
      pages: '<< /Type /Pages /Kids [3 0 R] /Count 1 /MediaBox [0 0 792 612] >>',
      page: '<< /Type /Page /Parent 2 0 R /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>',
    }),
  }
  t.ok((await qpdfCheck(onePagePdf())).clean, 'the unbroken original is sound')
  for (const [name, pdf] of Object.entries(cases)) {
    const res = await app.inject({ method: 'POST', url: '/api/sign', headers: { cookie: staff.cookie }, payload: { signature: staff.signature, pdf: pdf.toString('base64'), placements: [box] } })
    if (res.statusCode === 200) {
      const check = await qpdfCheck(res.rawPayload)
      t.ok(check.clean, `${name}: signed, and qpdf --check finds it sound (${check.output.slice(-200)})`)
      t.equal((await pdfsig(res.rawPayload)).signatures[0]?.validation, 'Signature is Valid.', `${name}: pdfsig`)
    } else {
      t.equal(res.statusCode, 422, `${name}: ${res.body.slice(0, 200)}`)
      t.equal(res.json().code, 'ERR_PDF_INVALID', name)
      t.notMatch(res.json().message, /Expected instance of/, `${name}: the message names the fault, not the reader's internals`)
    }
  }
})

t.test('an AppError thrown in a PDF worker arrives with its code and status', async (t) => {
  const pool = createPdfWorkerPool({ size: 1 })
  t.teardown(() => pool.close())
  const error = await pool.run('inspectPdf', onePagePdf({ page: '<< /Type /Page /Parent 2 0 R /MediaBox (0 0 1 1) >>' })).catch((e: unknown) => e)
  t.ok(isAppError(error), 'an AppError on this side')
  t.match(error, { code: 'ERR_PDF_INVALID', statusCode: 422, message: /Page 1 has no valid \/MediaBox/ })
})
