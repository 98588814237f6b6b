// Issue 21: `.../sign/new` is the signer page for someone with no signature yet. It checks the
// record like the page with a signature does (an unseen record is a 404, with nothing of it on the
// page), and offers to draw or type a signature kept through /api/signatures.
import t from 'tap'
import { buildTestApp, DEMO, login } from '../../../helpers/app.ts'
import { getPage } from '../../../helpers/pages.ts'

t.test('new: a form to make the first signature for your record; 404 for one you may not see', async (t) => {
  const app = await buildTestApp(t)
  const cookie = await login(app, DEMO.staff.email)

  const page = await getPage(app, '/app/signature-templates/daily-time-record/sign/new?signable=dtr-staff-2026-03', cookie)
  t.equal(page.statusCode, 200)
  t.match(page.body, 'data-newsig-dialog', 'the dialog that asks for a signature at the first field (issue 39 item 6)')
  t.match(page.body, 'data-signer ', 'on the signer page itself: the document first')
  t.match(page.body, '&quot;api&quot;:&quot;/api/signatures&quot;', 'it keeps the signature through the library API')
  t.match(page.body, '/app/signature-templates/daily-time-record/sign/00000000-0000-0000-0000-000000000000?signable=dtr-staff-2026-03', 'and then opens the page with it')
  t.match(page.body, 'signature-font.css')
  t.match(page.body, 'signer.js', 'the signing script runs before there is a signature')
  t.notMatch(page.body, '&quot;signature&quot;:&quot;', 'no signature in its config yet')
  const pad = await app.inject({ url: '/app/signature-templates/signer/signature_pad.js', headers: { cookie } })
  t.equal(pad.statusCode, 200)
  t.match(pad.headers['content-type'], 'text/javascript')

  const unseen = await getPage(app, '/app/signature-templates/contract/sign/new?signable=contract-admin', cookie)
  t.equal(unseen.statusCode, 404)
  t.notMatch(unseen.body, /Ada Admin/, 'nothing of the record on the page')
  t.equal((await getPage(app, '/app/signature-templates/daily-time-record/sign/new?signable=dtr-staff-2026-03')).statusCode >= 300, true, 'signed in only')
  t.same(await app.signature.library.list(DEMO.staff.id), [], 'opening the page makes no signature')
})
