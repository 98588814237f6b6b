import t from 'tap'
import { buildTestApp, DEMO } from '../../../helpers/app.ts'
import { inkShare, pdfsig, qpdfEncrypt } from '../../../fixtures/pdf/checkers.ts'
import { makePdf } from '../../../fixtures/pdf/make-pdf.ts'
import { signerWithSignature } from './helpers.ts'

t.test('POST /api/sign: an uploaded PDF comes back signed; bad uploads get a clear 4xx', async (t) => {
  const app = await buildTestApp(t)
  const staff = await signerWithSignature(app, DEMO.staff.email)
  const box = { page: 1, x: 300, y: 200, width: 200, height: 80 }
  const sign = (payload: object, cookie = staff.cookie) => app.inject({ method: 'POST', url: '/api/sign', headers: { cookie }, payload })
  const pdf = Buffer.from(await makePdf()).toString('base64')

  const res = await sign({ signature: staff.signature, pdf, placements: [box], title: 'Leave request' })
  t.equal(res.statusCode, 200, res.body.slice(0, 300))
  t.equal(res.headers['content-type'], 'application/pdf')
  t.match(res.headers['content-disposition'], /Leave-request-signed\.pdf/)
  const { signatures } = await pdfsig(res.rawPayload)
  t.equal(signatures[0]?.validation, 'Signature is Valid.')
  // B-LTA (issue 18): a DSS and a document timestamp follow the signature, the timestamp covers the whole file.
  t.same(signatures.map((s) => [s.fieldName, s.totalDocumentSigned]), [['Signature', false], ['Document timestamp', true]])
  t.ok((await inkShare(res.rawPayload, 1, [box]))[0]! > 0.05, 'the stamp is in its box')
  const again = await app.inject({ url: `/api/signatures/${res.headers['x-signature-uuid']}/document`, headers: { cookie: staff.cookie } })
  t.same(again.rawPayload, res.rawPayload, 'kept and downloadable later')

  const refusals: Array<[string, object, number, string]> = [
    ['not a PDF', { signature: staff.signature, pdf: Buffer.from('hello, not a pdf').toString('base64'), placements: [box] }, 422, 'ERR_PDF_INVALID'],
    ['a truncated PDF', { signature: staff.signature, pdf: Buffer.from('%PDF-1.7\n1 0 obj <<').toString('base64'), placements: [box] }, 422, 'ERR_PDF_INVALID'],
    ['an encrypted PDF', { signature: staff.signature, pdf: (await qpdfEncrypt(await makePdf(), 'secret')).toString('base64'), placements: [box] }, 422, 'ERR_PDF_ENCRYPTED'],
    ['a box off the page', { signature: staff.signature, pdf, placements: [{ ...box, x: 700 }] }, 422, 'ERR_PLACEMENT_OFF_PAGE'],
    ['no placements', { signature: staff.signature, pdf, placements: [] }, 400, 'ERR_VALIDATION'],
    ['someone else’s signature', { signature: '00000000-0000-4000-8000-000000000000', pdf, placements: [box] }, 404, 'ERR_NOT_FOUND'],
  ]
  for (const [name, payload, status, code] of refusals) {
    const r = await sign(payload)
    t.equal(r.statusCode, status, `${name}: ${r.body.slice(0, 200)}`)
    t.equal(r.json().code, code, name)
  }
  const huge = await app.inject({ method: 'POST', url: '/api/sign', headers: { cookie: staff.cookie, 'content-type': 'application/json' }, payload: JSON.stringify({ signature: staff.signature, pdf: 'A'.repeat(15 * 1024 * 1024), placements: [box] }) })
  t.equal(huge.statusCode, 413, 'too large')
  const form = await app.inject({ method: 'POST', url: '/api/sign', headers: { cookie: staff.cookie, 'content-type': 'application/pdf' }, payload: Buffer.from(await makePdf()) })
  t.equal(form.statusCode, 415, '/api writes are JSON only')
  t.equal((await app.inject({ method: 'POST', url: '/api/sign', payload: { signature: staff.signature, pdf, placements: [box] } })).statusCode, 401)
})
