// Saved templates (issue 38, item 6) can be renamed and deleted, as Documenso's and DocuSign's can:
// PATCH /api/document-templates/:key { name } changes the label (the key stays: rows and sessions
// name it), DELETE removes the row and the registry's entry. Only saved templates: a key the config
// or code declared answers 409 ERR_TEMPLATE_NOT_SAVED, an unknown one 404. Permissions through
// decide(): signature-templates:create renames, signature-templates:delete deletes. The /api
// write rules hold (JSON only, same origin). A session started from the template before it was
// deleted is signed to completion: it froze its own copy of the document. The uploaded document
// stays (its creator's upload; the session's record).
import t from 'tap'
import { buildTestApp, DEMO, login } from '../../../helpers/app.ts'
import { signerWithSignature } from '../signing/helpers.ts'
import { createDocumentSession, uploadDocument } from './document-helpers.ts'

t.setTimeout(180_000)

const FIELDS = [
  { signer: 0, type: 'signature', page: 1, x: 72, y: 100, width: 200, height: 60 },
  { signer: 1, type: 'signature', page: 1, x: 500, y: 100, width: 200, height: 60 },
]
const BODY = { name: 'Employment contract', signers: [{ role: 'Employee' }, { role: 'HR' }], fields: FIELDS }

type App = Awaited<ReturnType<typeof buildTestApp>>
const rename = (app: App, cookie: string, key: string, body: unknown, headers: Record<string, string> = {}) =>
  app.inject({ method: 'PATCH', url: `/api/document-templates/${key}`, headers: { cookie, ...headers }, payload: body as object })
const remove = (app: App, cookie: string, key: string, headers: Record<string, string> = {}) =>
  app.inject({ method: 'DELETE', url: `/api/document-templates/${key}`, headers: { cookie, ...headers } })

t.test('renamed: the label changes everywhere, the key stays; refusals write nothing', async (t) => {
  const app = await buildTestApp(t)
  const manager = await login(app, DEMO.manager.email)
  const staff = await login(app, DEMO.staff.email)
  const document = (await uploadDocument(app, manager)).json().data
  const saved = await app.inject({ method: 'POST', url: `/api/documents/${document.id}/template`, headers: { cookie: manager }, payload: BODY })
  t.equal(saved.statusCode, 201, saved.body)

  const renamed = await rename(app, manager, 'employment-contract', { name: 'Employment contract (2027)' })
  t.equal(renamed.statusCode, 200, renamed.body)
  t.match(renamed.json().data, { key: 'employment-contract', label: 'Employment contract (2027)', signers: [{ role: 'Employee' }, { role: 'HR' }] })
  t.equal(app.signature.registry.get('employment-contract').label(), 'Employment contract (2027)', 'the registry\'s label')
  const listed = (await app.inject({ url: '/api/document-templates', headers: { cookie: manager } })).json().data
  t.same(listed.map((d: { key: string; label: string }) => [d.key, d.label]), [['employment-contract', 'Employment contract (2027)']])
  const adminList = await app.inject({ url: '/admin/signature-templates', headers: { cookie: await login(app, DEMO.admin.email) } })
  t.match(adminList.body, 'Employment contract (2027)')

  const label = async () => (await app.signature.database.db.selectFrom('document_templates').select('label').executeTakeFirstOrThrow()).label
  const cases: Array<[string, () => ReturnType<typeof rename>, number, string, RegExp?]> = [
    ['staff may not rename', () => rename(app, staff, 'employment-contract', { name: 'Staff' }), 403, 'ERR_ACCESS_DENIED'],
    ['an unknown key', () => rename(app, manager, 'no-such-template', { name: 'X' }), 404, 'ERR_TEMPLATE_NOT_FOUND'],
    ['a key the config declared', () => rename(app, manager, 'daily-time-record', { name: 'X' }), 409, 'ERR_TEMPLATE_NOT_SAVED'],
    ['a key code registered', () => rename(app, manager, 'payslip', { name: 'X' }), 409, 'ERR_TEMPLATE_NOT_SAVED'],
    ['an empty name', () => rename(app, manager, 'employment-contract', { name: '  ' }), 400, 'ERR_VALIDATION', /body\.name/],
    ['a name too long', () => rename(app, manager, 'employment-contract', { name: 'x'.repeat(81) }), 400, 'ERR_VALIDATION', /body\.name/],
    ['an unknown key in the body', () => rename(app, manager, 'employment-contract', { name: 'X', key: 'other' }), 400, 'ERR_VALIDATION'],
    ['a form post', () => rename(app, manager, 'employment-contract', 'name=X', { 'content-type': 'application/x-www-form-urlencoded' }), 415, 'ERR_UNSUPPORTED_MEDIA_TYPE'],
    ['another site', () => rename(app, manager, 'employment-contract', { name: 'X' }, { origin: 'https://evil.example' }), 403, 'ERR_CROSS_ORIGIN'],
  ]
  for (const [what, send, status, code, message] of cases) {
    const response = await send()
    t.equal(response.statusCode, status, `${what}: ${response.body}`)
    t.equal(response.json().code, code, what)
    if (message) t.match(response.json().message, message, what)
  }
  t.equal((await app.inject({ method: 'PATCH', url: '/api/document-templates/employment-contract', payload: { name: 'X' } })).statusCode, 401, 'signed out')
  t.equal(await label(), 'Employment contract (2027)', 'no refusal wrote')
  t.equal(app.signature.registry.get('daily-time-record').label(), 'Daily Time Record', 'the config\'s template untouched')
})

t.test('deleted: gone from the registry and the list; its session is signed to completion; its document stays', async (t) => {
  const app = await buildTestApp(t)
  const manager = await login(app, DEMO.manager.email)
  const admin = await login(app, DEMO.admin.email)
  const staff = await login(app, DEMO.staff.email)
  const employee = await signerWithSignature(app, DEMO.staff.email, 'Sam')
  const hr = await signerWithSignature(app, DEMO.admin.email, 'Ada')
  const document = (await uploadDocument(app, manager)).json().data
  t.equal((await app.inject({ method: 'POST', url: `/api/documents/${document.id}/template`, headers: { cookie: manager }, payload: BODY })).statusCode, 201)
  const created = await createDocumentSession(app, manager, { template: 'employment-contract', signers: [{ user: DEMO.staff.id }, { user: DEMO.admin.id }] })
  t.equal(created.statusCode, 201, created.body)
  const session = created.json().data

  for (const [what, send, status, code] of [
    ['staff may not delete', () => remove(app, staff, 'employment-contract'), 403, 'ERR_ACCESS_DENIED'],
    ['a null origin', () => remove(app, manager, 'employment-contract', { origin: 'null' }), 403, 'ERR_CROSS_ORIGIN'],
    ['a key the config declared', () => remove(app, admin, 'daily-time-record'), 409, 'ERR_TEMPLATE_NOT_SAVED'],
    ['a key code registered', () => remove(app, admin, 'payslip'), 409, 'ERR_TEMPLATE_NOT_SAVED'],
    ['an unknown key', () => remove(app, admin, 'no-such-template'), 404, 'ERR_TEMPLATE_NOT_FOUND'],
  ] as const) {
    const response = await send()
    t.equal(response.statusCode, status, `${what}: ${response.body}`)
    t.equal(response.json().code, code, what)
  }
  t.equal((await app.inject({ method: 'DELETE', url: '/api/document-templates/employment-contract' })).statusCode, 401, 'signed out')
  t.ok(app.signature.registry.has('daily-time-record') && app.signature.registry.has('payslip'), 'config and code templates stay')
  t.ok(app.signature.registry.has('employment-contract'), 'no refusal deleted')

  const deleted = await remove(app, manager, 'employment-contract')
  t.equal(deleted.statusCode, 204, deleted.body)
  t.notOk(app.signature.registry.has('employment-contract'), 'out of the registry')
  t.same((await app.inject({ url: '/api/document-templates', headers: { cookie: manager } })).json().data, [])
  t.equal((await remove(app, manager, 'employment-contract')).statusCode, 404, 'deleted once')
  t.equal((await rename(app, manager, 'employment-contract', { name: 'Again' })).statusCode, 404)
  const fromDeleted = await createDocumentSession(app, manager, { template: 'employment-contract', signers: [{ user: DEMO.staff.id }, { user: DEMO.admin.id }] })
  t.equal(fromDeleted.statusCode, 400, 'no new session from it')

  // The session started before: both sign it, and it completes.
  for (const [signer, request] of [[employee, session.requests[0]], [hr, session.requests[1]]] as const) {
    const signed = await app.inject({
      method: 'POST', url: `/api/signing-sessions/${session.id}/requests/${request.id}/sign`,
      headers: { cookie: signer.cookie }, payload: { signature: signer.signature },
    })
    t.equal(signed.statusCode, 200, signed.body)
  }
  const done = (await app.inject({ url: `/api/signing-sessions/${session.id}`, headers: { cookie: manager } })).json().data
  t.equal(done.status, 'completed')
  const pdf = await app.inject({ url: `/api/signing-sessions/${session.id}/document`, headers: { cookie: manager } })
  t.equal(pdf.statusCode, 200, 'the signed document')
  t.equal(pdf.rawPayload.subarray(0, 5).toString(), '%PDF-')

  // The uploaded document is its creator's upload: kept, and its bytes with it.
  const kept = await app.inject({ url: `/api/documents/${document.id}/pages/1`, headers: { cookie: manager } })
  t.equal(kept.statusCode, 200, 'the creator still has the document')
  t.equal((await app.signature.database.db.selectFrom('documents').select('id').execute()).length, 1, 'its row')
})
