// Issue 39, item 4: two signing models silently differed. On the signer page each signatory signs
// a copy of their own (a record with two slots gives two PDFs with one signature each); only a
// signing session gives one document with every signature. The signer page now says so before
// signing, naming the slots signed apart; a record with no other slot, or a session request, says
// nothing of the kind.
import t from 'tap'
import { buildTestApp, DEMO } from '../../../helpers/app.ts'
import { getPage } from '../../../helpers/pages.ts'
import { signerWithSignature } from '../signing/helpers.ts'

t.setTimeout(120_000)

t.test('the signer page tells the signer, before signing, that the other slots are signed in copies of their own', async (t) => {
  const app = await buildTestApp(t)
  const staff = await signerWithSignature(app, DEMO.staff.email, 'Sam')
  const admin = await signerWithSignature(app, DEMO.admin.email, 'Ada')
  const page = await getPage(app, `/app/signature-templates/daily-time-record/sign/${staff.signature}?signable=dtr-staff-2026-03`, staff.cookie)
  t.equal(page.statusCode, 200)
  const note = /<p class="flash flash-info signer-apart" data-signed-apart>([^<]*)<\/p>/.exec(page.body)
  t.ok(note, 'a note before the document')
  t.match(note?.[1], /copy of your own/)
  t.match(note?.[1], /\(Supervisor\)/, 'names the slot signed apart by its label')
  t.match(note?.[1], /signing session/, 'and the way to one document')

  const created = await app.inject({ method: 'POST', url: '/api/signing-sessions', headers: { cookie: admin.cookie }, payload: { template: 'daily-time-record', signable: 'dtr-staff-2026-02', mode: 'parallel' } })
  t.equal(created.statusCode, 201, created.body)
  const request = created.json().data.requests.find((r: { slot: string }) => r.slot === 'employee')
  const inSession = await getPage(app, `/app/signature-templates/daily-time-record/sign/${staff.signature}?request=${request.id}`, staff.cookie)
  t.equal(inSession.statusCode, 200)
  t.notMatch(inSession.body, 'data-signed-apart', 'a session request is one document already')
})
