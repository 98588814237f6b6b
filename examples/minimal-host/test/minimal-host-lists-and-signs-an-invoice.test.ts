import t from 'tap'
import { pdfsig, qpdfCheck } from '../../../test/fixtures/pdf/checkers.ts'
import { makeStampPng } from '../../../test/fixtures/pdf/stamp-image.ts'
import { login } from '../../../test/helpers/app.ts'
import { csrfMeta, getPage } from '../../../test/helpers/pages.ts'
import { bootMinimalHost } from './boot.ts'

const CUSTOMER_BOX = { slot: 'customer', page: 1, x: 340, y: 72, width: 200, height: 60 }

t.test('the Invoices screen renders the host\'s own resource', async (t) => {
  const app = await bootMinimalHost(t)
  const list = await getPage(app, '/office/invoices', await login(app, 'clerk@example.com'))
  t.equal(list.statusCode, 200, list.body)
  t.match(list.body, /2026-001/)
  t.match(list.body, /2026-002/)
  t.match(list.body, /Cody Customer/)
  t.match(list.body, /€1,200\.00/)
  // searchFields ['customer']: a customer's name finds both, an invoice number (not a search field) none.
  const cookie = await login(app, 'clerk@example.com')
  const byCustomer = await getPage(app, '/office/invoices?search=cody', cookie)
  t.match(byCustomer.body, /2026-001[\s\S]*2026-002|2026-002[\s\S]*2026-001/)
  const byNumber = await getPage(app, '/office/invoices?search=2026-001', cookie)
  t.equal(byNumber.statusCode, 200)
  t.notMatch(byNumber.body, /€1,200\.00/, 'the number is not a search field')
  const signedOut = await getPage(app, '/office/invoices')
  t.equal(signedOut.statusCode, 303, 'signed out: to the login page')
  t.match(signedOut.headers.location, /^\/login/)
  t.equal((await getPage(app, '/login')).statusCode, 200, 'which exists')
})

t.test('the host\'s template is listed and renders its sample', async (t) => {
  const app = await bootMinimalHost(t)
  const cookie = await login(app, 'accountant@example.com')
  const templates = await app.inject({ url: '/office/signature-templates', headers: { cookie, accept: 'application/json' } })
  t.equal(templates.statusCode, 200, templates.body)
  t.match(templates.json().data, [{ key: 'invoice', label: 'Invoice', slotCount: 1 }])
  t.equal(app.signature.registry.origin('invoice'), 'fluent')
  const sample = await app.inject({ url: '/office/signature-templates/invoice/sample.pdf', headers: { cookie } })
  t.equal(sample.statusCode, 200)
  t.equal(sample.headers['content-type'], 'application/pdf')
})

t.test('the customer signs their invoice through the signer flow; pdfsig finds a valid signature', async (t) => {
  const app = await bootMinimalHost(t)
  const cookie = await login(app, 'customer@example.com')
  const signables = await app.inject({ url: '/api/signables/invoice', headers: { cookie } })
  t.same(signables.json().data.map((r: { id: string }) => r.id), ['inv-1', 'inv-2'])

  const created = await app.inject({ method: 'POST', url: '/api/signatures', headers: { cookie }, payload: { label: 'Cody', image: `data:image/png;base64,${makeStampPng().toString('base64')}`, certificate: { mode: 'issue' } } })
  t.equal(created.statusCode, 201, created.body)
  const csrf = csrfMeta((await getPage(app, '/office', cookie)).body)
  const signed = await app.inject({
    method: 'POST',
    url: '/office/signature-templates/invoice/signer/finalize',
    headers: { cookie, 'x-csrf-token': csrf, accept: 'application/json' },
    payload: { signature: created.json().data.uuid, signable: 'inv-1', placements: [CUSTOMER_BOX] },
  })
  t.equal(signed.statusCode, 200, signed.body)
  const answer = signed.json().data
  t.equal(answer.status, 'signed')

  const download = await app.inject({ url: `/api/signatures/${answer.signature_uuid}/document`, headers: { cookie } })
  t.equal(download.statusCode, 200)
  const { signatures, output } = await pdfsig(download.rawPayload)
  // B-LTA (issue 18): the signature, then a document timestamp over the whole file (pdfsig 22.12 lists it but cannot check it).
  t.same(signatures.map((s) => s.fieldName), ['Signature', 'Document timestamp'], output)
  t.equal(signatures[0]!.validation, 'Signature is Valid.', output)
  t.ok(signatures[1]!.totalDocumentSigned, 'the document timestamp covers the whole document')
  t.equal(signatures[0]!.commonName, 'Cody Customer')
  t.ok((await qpdfCheck(download.rawPayload)).clean, 'qpdf --check is clean')
  t.match(await app.signature.signatures.find(answer.signature_uuid), { user_id: 'u-customer', signable_type: 'invoice', signable_id: 'inv-1', status: 'signed' })
})
