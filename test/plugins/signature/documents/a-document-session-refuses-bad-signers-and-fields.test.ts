// POST /api/signing-sessions with a document: every bad signer or field is a 400 naming its
// path, and nothing is written.
import t from 'tap'
import { buildTestApp, DEMO, login } from '../../../helpers/app.ts'
import { createDocumentSession, documentSessionBody, uploadDocument } from './document-helpers.ts'

t.setTimeout(120_000)

t.test('signers and fields are validated with their paths', async (t) => {
  const app = await buildTestApp(t)
  const admin = await login(app, DEMO.admin.email)
  const staff = await login(app, DEMO.staff.email)
  const document = (await uploadDocument(app, admin)).json().data
  const base = documentSessionBody(document.id)
  const cases: Array<[string, object, RegExp]> = [
    ['signer index out of range', { ...base, fields: [...base.fields, { signer: 3, type: 'text', page: 1, x: 1, y: 1, width: 20, height: 20 }] }, /body\.fields\.3\.signer/],
    ['a signer without a signature field', { ...base, signers: [...base.signers, { email: 'b@example.net', name: 'B' }] }, /body\.signers\.1: each signer needs at least one signature field/],
    ['a page the document lacks', { ...base, fields: [{ ...base.fields[0]!, page: 2 }] }, /body\.fields\.0\.page/],
    ['a field leaving its page', { ...base, fields: [{ ...base.fields[0]!, x: 700 }] }, /body\.fields\.0: the field leaves page 1/],
    ['an unknown key', { ...base, colour: 'red' }, /unknown field/],
    ['a bad type', { ...base, fields: [{ ...base.fields[0]!, type: 'stamp' }] }, /body\.fields\.0\.type/],
    ['a bad address', { ...base, signers: [{ email: 'not-an-address', name: 'X' }] }, /body\.signers\.0/],
    ['an unknown user', { ...base, signers: [{ user: 'u-nobody' }] }, /body\.signers\.0\.user: no user/],
  ]
  for (const [what, body, message] of cases) {
    const response = await createDocumentSession(app, admin, body)
    t.equal(response.statusCode, 400, `${what}: ${response.body}`)
    t.equal(response.json().code, 'ERR_VALIDATION', what)
    t.match(response.json().message, message, what)
  }
  const notYours = await createDocumentSession(app, staff, base)
  t.equal(notYours.statusCode, 403, 'staff may not create sessions')
  t.same(await app.signature.database.db.selectFrom('signing_sessions').selectAll().execute(), [], 'nothing written')
  t.same(await app.signature.database.db.selectFrom('sign_links').selectAll().execute(), [])
})
