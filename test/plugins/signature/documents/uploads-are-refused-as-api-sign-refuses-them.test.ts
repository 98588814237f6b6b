// POST /api/documents refuses what /api/sign refuses, with the same codes, and writes nothing:
// not a PDF, an encrypted PDF, more than 10 MiB; staff lack documents:create (403), a signed-out
// caller gets 401, and someone else's document is a 404 like a missing one.
import t from 'tap'
import { buildTestApp, DEMO, login } from '../../../helpers/app.ts'
import { makePdf } from '../../../fixtures/pdf/make-pdf.ts'
import { qpdfEncrypt } from '../../../fixtures/pdf/checkers.ts'
import { uploadDocument } from './document-helpers.ts'

t.setTimeout(120_000)

t.test('upload refusals', async (t) => {
  const app = await buildTestApp(t)
  const admin = await login(app, DEMO.admin.email)
  const staff = await login(app, DEMO.staff.email)
  const refusal = async (response: Awaited<ReturnType<typeof uploadDocument>>) => [response.statusCode, response.json().code]

  t.same(await refusal(await uploadDocument(app, admin, Buffer.from('hello, not a pdf'))), [422, 'ERR_PDF_INVALID'])
  t.same(await refusal(await uploadDocument(app, admin, Buffer.from('%PDF-1.7\nnothing else'))), [422, 'ERR_PDF_INVALID'])
  t.same(await refusal(await uploadDocument(app, admin, await qpdfEncrypt(await makePdf(), 'secret'))), [422, 'ERR_PDF_ENCRYPTED'])
  const big = Buffer.concat([Buffer.from(await makePdf()), Buffer.alloc(10 * 1024 * 1024)])
  t.same(await refusal(await uploadDocument(app, admin, big)), [413, 'ERR_BODY_TOO_LARGE'])
  t.same(await refusal(await uploadDocument(app, staff)), [403, 'ERR_ACCESS_DENIED'])
  const anonymous = await app.inject({ method: 'POST', url: '/api/documents', headers: { 'content-type': 'application/pdf' }, payload: Buffer.from(await makePdf()) })
  t.same([anonymous.statusCode, anonymous.json().code], [401, 'ERR_UNAUTHENTICATED'])
  const form = await app.inject({ method: 'POST', url: '/api/documents', headers: { cookie: admin, 'content-type': 'text/plain' }, payload: '%PDF-1.7' })
  t.equal(form.statusCode, 415, 'a type a cross-site form can send is refused')
  t.same(await app.signature.database.db.selectFrom('documents').selectAll().execute(), [], 'nothing written')

  const mine = (await uploadDocument(app, admin, undefined, 'Offer letter.pdf')).json().data
  t.equal(mine.filename, 'Offer letter.pdf')
  const other = await app.inject({ url: `/api/documents/${mine.id}`, headers: { cookie: staff } })
  const missing = await app.inject({ url: '/api/documents/00000000-0000-4000-8000-000000000000', headers: { cookie: staff } })
  t.same([other.statusCode, other.json()], [missing.statusCode, missing.json()], 'someone else\'s document answers exactly like a missing one')
  t.equal(other.statusCode, 404)
  t.equal((await app.inject({ url: `/api/documents/${mine.id}/pages/1`, headers: { cookie: staff } })).statusCode, 404)
})
