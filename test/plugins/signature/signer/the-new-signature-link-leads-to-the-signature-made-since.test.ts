// Issue 39, item 2: the invitation link of a signer who had no signature yet opens the signer page
// with "new" (make one there). Someone who made a signature, left without finishing and opened the
// same link again got "You have no signature yet" and made a second signature and certificate.
// The link leads to the signer's current state: once they have an active signature, "new"
// redirects to the signer page with it (primary first), the record or request and "back" kept.
import t from 'tap'
import { buildTestApp, DEMO, login } from '../../../helpers/app.ts'
import { getPage } from '../../../helpers/pages.ts'
import { STAMP_DATA_URL } from '../signing/helpers.ts'

t.setTimeout(120_000)

t.test('"new" opens the signature made since, instead of asking for another', async (t) => {
  const app = await buildTestApp(t)
  const cookie = await login(app, DEMO.staff.email)
  const link = '/app/signature-templates/daily-time-record/sign/new?signable=dtr-staff-2026-03&back=%2Fapp%2Finbox'
  const first = await getPage(app, link, cookie)
  t.equal(first.statusCode, 200, 'no signature yet: the page to make one')
  t.match(first.body, 'data-newsig-dialog')

  const made = await app.inject({ method: 'POST', url: '/api/signatures', headers: { cookie }, payload: { label: 'Sam', image: STAMP_DATA_URL, certificate: { mode: 'issue' } } })
  t.equal(made.statusCode, 201, made.body)
  const uuid = made.json().data.uuid as string

  const again = await getPage(app, link, cookie)
  t.equal(again.statusCode, 302, 'the same link now leads to the signature made')
  const location = new URL(again.headers.location as string, 'http://x')
  t.equal(location.pathname, `/app/signature-templates/daily-time-record/sign/${uuid}`)
  t.equal(location.searchParams.get('signable'), 'dtr-staff-2026-03')
  t.equal(location.searchParams.get('back'), '/app/inbox')
  const page = await getPage(app, `${location.pathname}${location.search}`, cookie)
  t.equal(page.statusCode, 200)
  t.notMatch(page.body, 'data-newsig-dialog')
  const signatures = (await app.inject({ url: '/api/signatures', headers: { cookie } })).json().data
  t.equal(signatures.length, 1, 'one signature, one certificate')
})
