// Issue 38, item 6 ("Reuse"), over HTTP on SQLite (and PostgreSQL with DATABASE_URL): a document
// with its fields is saved as a template through POST /api/documents/:id/template; it is in the
// registry (the runtime way) and again after a restart; the next session from it takes only the
// signers. Every refusal has its code, and a refusal writes nothing.
import t from 'tap'
import { buildApp } from '../../../../host-app/app.ts'
import { buildTestApp, DEMO, login } from '../../../helpers/app.ts'
import { isolatedEnv } from '../../../helpers/test-env.ts'
import { createDocumentSession, EXTERNAL, uploadDocument } from './document-helpers.ts'

t.setTimeout(180_000)

const FIELDS = [
  { signer: 0, type: 'signature', page: 1, x: 72, y: 100, width: 200, height: 60 },
  { signer: 0, type: 'date', page: 1, x: 300, y: 100, width: 120, height: 20 },
  { signer: 1, type: 'signature', page: 1, x: 500, y: 100, width: 200, height: 60 },
  { signer: 1, type: 'text', page: 1, x: 500, y: 200, width: 150, height: 20, label: 'Job title' },
]
const BODY = { name: 'Employment contract', signers: [{ role: 'Employee' }, { role: 'HR' }], fields: FIELDS }

const saveTemplate = (app: Awaited<ReturnType<typeof buildTestApp>>, cookie: string, id: string, body: object) =>
  app.inject({ method: 'POST', url: `/api/documents/${id}/template`, headers: { cookie }, payload: body })

t.test('saved as a template, the next session is the signers and Send; it survives a restart', async (t) => {
  const { env, cleanup } = await isolatedEnv()
  t.teardown(cleanup)
  let app = await buildApp({ env })
  t.teardown(() => app.close())
  await app.ready()
  const manager = await login(app, DEMO.manager.email)
  const document = (await uploadDocument(app, manager)).json().data

  const saved = await saveTemplate(app, manager, document.id, BODY)
  t.equal(saved.statusCode, 201, saved.body)
  const template = saved.json().data
  t.equal(template.key, 'employment-contract')
  t.equal(template.label, 'Employment contract')
  t.same(template.signers, [{ role: 'Employee' }, { role: 'HR' }])
  t.same(template.document, { id: document.id, filename: 'contract.pdf', pages: [{ page: 1, width: 792, height: 612 }] })
  t.same(template.fields, FIELDS)

  // In the one registry, by the runtime way, with a slot per role in signing order.
  const registered = app.signature.registry.get('employment-contract')
  t.equal(app.signature.registry.origin('employment-contract'), 'runtime')
  t.same(registered.slots().map((s) => [s.key, s.role, s.order, s.placement.x]), [['signer-1', 'Employee', 1, 72], ['signer-2', 'HR', 2, 500]])

  // The admin's template list shows it with the others; its sample is the uploaded PDF.
  const adminCookie = await login(app, DEMO.admin.email)
  const adminList = await app.inject({ url: '/admin/signature-templates', headers: { cookie: adminCookie } })
  t.equal(adminList.statusCode, 200)
  t.match(adminList.body, 'Employment contract')
  const sample = await app.inject({ url: '/admin/signature-templates/employment-contract/sample.pdf', headers: { cookie: adminCookie } })
  t.equal(sample.statusCode, 200, 'its sample')
  t.equal(sample.rawPayload.subarray(0, 5).toString(), '%PDF-')

  const listed = await app.inject({ url: '/api/document-templates', headers: { cookie: manager } })
  t.equal(listed.statusCode, 200, listed.body)
  t.same(listed.json().data.map((d: { key: string }) => d.key), ['employment-contract'])

  // After a restart on the same database: registered again at boot.
  await app.close()
  app = await buildApp({ env })
  await app.ready()
  t.ok(app.signature.registry.has('employment-contract'), 'registered again at boot')

  // The admin, who did not upload the document, starts a session from the template: signers only.
  const admin = await login(app, DEMO.admin.email)
  const created = await createDocumentSession(app, admin, { template: 'employment-contract', signers: [EXTERNAL, { user: DEMO.staff.id }], message: 'Welcome!' })
  t.equal(created.statusCode, 201, created.body)
  const session = created.json().data
  t.equal(session.template, '_document')
  t.same(session.requests.map((r: any) => [r.signer.email, r.fields.map((f: any) => f.type)]), [[EXTERNAL.email, ['signature', 'date']], [DEMO.staff.email, ['signature', 'text']]])
  t.equal(session.requests[1].fields[1].label, 'Job title')
  const page = await app.inject({ url: `/api/documents/${document.id}/pages/1`, headers: { cookie: admin } })
  t.equal(page.statusCode, 200, 'the template\'s document is shown to whoever may start a session from it')

  const wrongCount = await createDocumentSession(app, admin, { template: 'employment-contract', signers: [EXTERNAL] })
  t.equal(wrongCount.statusCode, 400, wrongCount.body)
  t.match(wrongCount.json(), { code: 'ERR_VALIDATION', message: /has 2 signer\(s\) \(Employee, HR\), 1 given/ })
  const extra = await createDocumentSession(app, admin, { template: 'employment-contract', signers: [EXTERNAL, { user: DEMO.staff.id }], fields: [] })
  t.equal(extra.statusCode, 400, 'the fields are the template\'s: none may be given')
})

t.test('refusals: unknown and other people\'s documents, duplicates, bad names, no permission', async (t) => {
  const app = await buildTestApp(t)
  const admin = await login(app, DEMO.admin.email)
  const manager = await login(app, DEMO.manager.email)
  const staff = await login(app, DEMO.staff.email)
  const adminsDocument = (await uploadDocument(app, admin)).json().data
  const managersDocument = (await uploadDocument(app, manager)).json().data

  const cases: Array<[string, string, string, object, number, string, RegExp?]> = [
    ['unknown document', manager, '00000000-0000-4000-8000-000000000000', BODY, 404, 'ERR_DOCUMENT_NOT_FOUND'],
    ['not a document id', manager, 'nope', BODY, 404, 'ERR_DOCUMENT_NOT_FOUND'],
    ['staff may not save templates', staff, managersDocument.id, BODY, 403, 'ERR_ACCESS_DENIED'],
    ['a name without a letter or digit', manager, managersDocument.id, { ...BODY, name: '!!!' }, 400, 'ERR_VALIDATION', /body\.name/],
    ['an empty name', manager, managersDocument.id, { ...BODY, name: ' ' }, 400, 'ERR_VALIDATION', /body\.name/],
    ['a role without a signature field', manager, managersDocument.id, { ...BODY, signers: [...BODY.signers, { role: 'Witness' }] }, 400, 'ERR_VALIDATION', /body\.signers\.2/],
    ['a field off its page', manager, managersDocument.id, { ...BODY, fields: [{ ...FIELDS[0]!, x: 700 }, FIELDS[2]] }, 400, 'ERR_VALIDATION', /body\.fields\.0/],
    ['an unknown key', manager, managersDocument.id, { ...BODY, colour: 'red' }, 400, 'ERR_VALIDATION'],
  ]
  for (const [what, cookie, id, body, status, code, message] of cases) {
    const response = await saveTemplate(app, cookie, id, body)
    t.equal(response.statusCode, status, `${what}: ${response.body}`)
    t.equal(response.json().code, code, what)
    if (message) t.match(response.json().message, message, what)
  }
  const signedOut = await app.inject({ method: 'POST', url: `/api/documents/${managersDocument.id}/template`, payload: BODY })
  t.equal(signedOut.statusCode, 401)
  t.same(await app.signature.database.db.selectFrom('document_templates').selectAll().execute(), [], 'nothing written')

  // The same name in other letters is the same key; the admin's own document changes nothing.
  t.equal((await saveTemplate(app, manager, managersDocument.id, BODY)).statusCode, 201)
  const duplicate = await saveTemplate(app, admin, adminsDocument.id, { ...BODY, name: 'EMPLOYMENT contract!' })
  t.equal(duplicate.statusCode, 409, duplicate.body)
  t.equal(duplicate.json().code, 'ERR_TEMPLATE_EXISTS')
  // A key the config declared is taken too.
  const [configKey] = [...app.signature.registry.all().keys()].filter((k) => app.signature.registry.origin(k) !== 'runtime')
  if (configKey) {
    const taken = await saveTemplate(app, admin, adminsDocument.id, { ...BODY, name: configKey })
    t.equal(taken.statusCode, 409, `the config's ${configKey}`)
  }
  t.equal((await app.signature.database.db.selectFrom('document_templates').selectAll().execute()).length, 1)
  const listByStaff = await app.inject({ url: '/api/document-templates', headers: { cookie: staff } })
  t.equal(listByStaff.statusCode, 403)
  const unknownTemplate = await createDocumentSession(app, admin, { template: 'no-such-template', signers: [EXTERNAL] })
  t.equal(unknownTemplate.statusCode, 400, 'a key that is no saved document template is the record path\'s refusal')
})
