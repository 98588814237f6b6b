// Two app instances on one database (one SQLite file, or one PostgreSQL schema with DATABASE_URL):
// a template saved, renamed or deleted through one is in the other's registry lists (the admin's
// templates screen, the send form's choice, the JSON list) at its next request, without a restart.
// Config and code templates are never touched by it.
import t from 'tap'
import { buildApp } from '../../../../host-app/app.ts'
import { DEMO, login } from '../../../helpers/app.ts'
import { eventually } from '../../../helpers/eventually.ts'
import { isolatedEnv } from '../../../helpers/test-env.ts'
import { uploadDocument } from './document-helpers.ts'

t.setTimeout(180_000)

const BODY = {
  name: 'Mutual NDA', signers: [{ role: 'Party' }],
  fields: [{ signer: 0, type: 'signature', page: 1, x: 72, y: 100, width: 200, height: 60 }],
}

t.test('a save, a rename and a delete on one instance are seen by the other', async (t) => {
  const { env, cleanup } = await isolatedEnv()
  t.teardown(cleanup)
  const one = await buildApp({ env })
  t.teardown(() => one.close())
  await one.ready()
  const two = await buildApp({ env })
  t.teardown(() => two.close())
  await two.ready()
  const onOne = await login(one, DEMO.manager.email)
  const adminOnTwo = await login(two, DEMO.admin.email)
  const templatesScreen = async () => (await two.inject({ url: '/admin/signature-templates', headers: { cookie: adminOnTwo, accept: 'application/json' } })).json().data
    .map((row: { key: string; label: string }) => `${row.key}=${row.label}`) as string[]
  const sendForm = async () => (await two.inject({ url: '/app/sessions/new', headers: { cookie: adminOnTwo } })).body
  const before = await templatesScreen()
  t.notOk(before.some((row) => row.startsWith('mutual-nda=')))

  const document = (await uploadDocument(one, onOne)).json().data
  t.equal((await one.inject({ method: 'POST', url: `/api/documents/${document.id}/template`, headers: { cookie: onOne }, payload: BODY })).statusCode, 201)
  // PostgreSQL: another instance's commit reaches this one as a notification, a short delivery later.
  t.ok(await eventually(async () => (await templatesScreen()).includes('mutual-nda=Mutual NDA')), 'saved on one: on the other\'s templates screen')
  t.ok(two.signature.registry.has('mutual-nda'))
  t.equal(two.signature.registry.origin('mutual-nda'), 'runtime')
  t.match(await sendForm(), 'Mutual NDA', 'and in its send form')
  const sample = await two.inject({ url: '/admin/signature-templates/mutual-nda/sample.pdf', headers: { cookie: adminOnTwo } })
  t.equal(sample.statusCode, 200, 'its sample on the other')

  t.equal((await one.inject({ method: 'PATCH', url: '/api/document-templates/mutual-nda', headers: { cookie: onOne }, payload: { name: 'Mutual NDA v2' } })).statusCode, 200)
  t.ok(await eventually(async () => (await templatesScreen()).includes('mutual-nda=Mutual NDA v2')), 'renamed on one: renamed on the other')
  t.match(await sendForm(), 'Mutual NDA v2')

  // Renamed on two, deleted on two: one sees both.
  t.equal((await two.inject({ method: 'PATCH', url: '/api/document-templates/mutual-nda', headers: { cookie: adminOnTwo }, payload: { name: 'Mutual NDA v3' } })).statusCode, 200)
  const adminOnOne = await login(one, DEMO.admin.email)
  const onesScreen = async () => (await one.inject({ url: '/admin/signature-templates', headers: { cookie: adminOnOne, accept: 'application/json' } })).json().data
    .map((row: { key: string; label: string }) => `${row.key}=${row.label}`) as string[]
  t.ok(await eventually(async () => (await onesScreen()).includes('mutual-nda=Mutual NDA v3')), 'renamed on two: renamed on one')
  const deleted = await two.inject({ method: 'DELETE', url: '/api/document-templates/mutual-nda', headers: { cookie: adminOnTwo } })
  t.equal(deleted.statusCode, 204, deleted.body)
  t.ok(await eventually(async () => !(await onesScreen()).some((row) => row.startsWith('mutual-nda='))), 'deleted on two: gone from one')
  t.notOk(one.signature.registry.has('mutual-nda'))
  t.equal((await one.inject({ url: '/admin/signature-templates/mutual-nda/sample.pdf', headers: { cookie: adminOnOne } })).statusCode, 404, 'its sample gone on one')
  // A rename of it on one, which had it, is refused as for any unknown key.
  t.equal((await one.inject({ method: 'PATCH', url: '/api/document-templates/mutual-nda', headers: { cookie: onOne }, payload: { name: 'Late' } })).statusCode, 404)
  t.same(await templatesScreen(), before, 'the other\'s list is as it was: config and code templates untouched')
})
