// Issue 15, item 17: opening the signer page on a session request — the page, then its meta call
// and its page images — writes one 'opened' event to the audit trail, not one per call.
import t from 'tap'
import { buildTestApp, DEMO, login } from '../../../helpers/app.ts'
import { getPage } from '../../../helpers/pages.ts'
import { meta, signerWithSignature } from '../signing/helpers.ts'

t.setTimeout(120_000)

t.test('one opening, one event', async (t) => {
  const app = await buildTestApp(t)
  const staff = await signerWithSignature(app, DEMO.staff.email, 'Sam')
  const admin = await login(app, DEMO.admin.email)
  const created = await app.inject({ method: 'POST', url: '/api/signing-sessions', headers: { cookie: admin }, payload: { template: 'payslip', signable: 'payslip-staff-2026-03', mode: 'parallel' } })
  t.equal(created.statusCode, 201, created.body)
  const session = created.json().data
  const request = session.requests.find((r: { slot: string }) => r.slot === 'employee').id
  const opened = async () => (await app.inject({ url: `/api/signing-sessions/${session.id}`, headers: { cookie: admin } })).json().data.events
    .filter((e: { event: string }) => e.event === 'opened')

  const page = await getPage(app, `/app/signature-templates/payslip/sign/${staff.signature}?request=${request}`, staff.cookie)
  t.equal(page.statusCode, 200)
  const answer = await meta(app, staff, 'payslip', { signature: staff.signature, request })
  t.equal(answer.statusCode, 200, answer.body)
  for (const n of answer.json().data.pages.map((p: { page: number }) => p.page)) {
    const image = await app.inject({ url: `/app/signature-templates/payslip/signer/pages/${n}?request=${request}`, headers: { cookie: staff.cookie } })
    t.equal(image.statusCode, 200)
  }
  const events = await opened()
  t.equal(events.length, 1, 'the page load is the one opening')
  t.match(events[0], { requestId: request, actor: DEMO.staff.id, address: '127.0.0.1' })

  await getPage(app, `/app/signature-templates/payslip/sign/${staff.signature}?request=${request}`, staff.cookie)
  t.equal((await opened()).length, 2, 'opening the page again is another opening')
})
