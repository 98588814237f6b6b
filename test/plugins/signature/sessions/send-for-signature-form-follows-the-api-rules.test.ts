// Issue 20, item 2: a person with signing-sessions:create sends a record for signature from a
// form: bound slots show their signatory, unbound ones offer people, the API's rules decide and
// their refusals come back next to the field, with nothing written.
import t from 'tap'
import { buildTestApp, DEMO, login } from '../../../helpers/app.ts'
import { csrfFor, getPage } from '../../../helpers/pages.ts'

t.setTimeout(120_000)

t.test('the form offers the record\'s slots, refuses bad choices inline, and sends', async (t) => {
  const app = await buildTestApp(t)
  const admin = await login(app, DEMO.admin.email)
  const csrf = await csrfFor(app, admin)
  const send = (fields: Record<string, string>) => app.inject({
    method: 'POST', url: '/app/sessions', payload: new URLSearchParams(fields).toString(),
    headers: { cookie: admin, 'x-csrf-token': csrf, 'hx-request': 'true', 'content-type': 'application/x-www-form-urlencoded' },
  })
  const count = async () => (await app.inject({ url: '/api/signing-sessions', headers: { cookie: admin } })).json().data.length

  const page = await getPage(app, '/app/sessions/new?template=contract&signable=contract-staff', admin)
  t.equal(page.statusCode, 200)
  t.match(page.body, /data-slot="employer"[\s\S]*?data-bound="u-admin">Ada Admin/, 'a bound slot shows its signatory')
  t.match(page.body, /data-slot="employee"[\s\S]*?data-bound="u-staff">Sam Staff/)
  t.match(page.body, /name="signer.witness"/, 'an unbound slot offers people')

  const partial = await getPage(app, '/app/sessions/new?template=daily-time-record&signable=dtr-staff-2026-03', admin, { 'hx-request': 'true' })
  t.match(partial.body, /^<form id="send-form"/, 'changing the template or record swaps the form only')

  const noRecord = await send({ template: 'contract', signable: '', mode: 'sequential' })
  t.equal(noRecord.statusCode, 422)
  t.match(noRecord.body, /id="send-signable"[^>]*aria-invalid="true"[\s\S]*Choose a record\./)

  // The witness is also the contract's employee: one person, one slot (the API's rule).
  const repeated = await send({ template: 'contract', signable: 'contract-staff', mode: 'sequential', 'signer.witness': DEMO.staff.id })
  t.equal(repeated.statusCode, 422)
  // Issue 39 item 11: said in words next to the witness field, not as the API's message in a banner.
  t.match(repeated.body, /id="send-signer-witness-error">Sam Staff already signs “Employee”, and one person signs one part of this document: choose someone else\.<\/p>/)
  const outsideDetails = repeated.body.replace(/<details[\s\S]*?<\/details>/g, '')
  t.notMatch(outsideDetails, 'may not sign both', 'the API\'s words only behind Details')
  t.notMatch(outsideDetails, '&quot;u-staff&quot;', 'no user id in what people read')
  t.match(repeated.body, /<summary>Details<\/summary><code>signers: &quot;u-staff&quot; may not sign both/, 'one click away')
  t.equal(await count(), 0, 'nothing written')

  const sent = await send({ template: 'contract', signable: 'contract-staff', mode: 'parallel', 'signer.witness': DEMO.manager.id })
  t.equal(sent.statusCode, 200, sent.body)
  const location = sent.headers['hx-redirect'] as string
  t.match(location, /^\/app\/sessions\/[0-9a-f-]{36}$/)
  const created = (await app.inject({ url: `/api/signing-sessions/${location.split('/').at(-1)}`, headers: { cookie: admin } })).json().data
  t.equal(created.mode, 'parallel')
  t.same(created.requests.map((r: { slot: string; signer: { id: string } }) => [r.slot, r.signer.id]).sort(), [['employee', 'u-staff'], ['employer', 'u-admin'], ['witness', 'u-manager']])
})

t.test('without signing-sessions:create: no form, no send, no button', async (t) => {
  const app = await buildTestApp(t)
  const staff = await login(app, DEMO.staff.email)
  t.equal((await getPage(app, '/app/sessions/new', staff)).statusCode, 403)
  const post = await app.inject({ method: 'POST', url: '/app/sessions', payload: 'template=contract&signable=contract-staff', headers: { cookie: staff, 'x-csrf-token': await csrfFor(app, staff), 'content-type': 'application/x-www-form-urlencoded' } })
  t.equal(post.statusCode, 403)
  t.notMatch((await getPage(app, '/app/sessions', staff)).body, 'data-new-session', 'the button is hidden by the same permission')
})
