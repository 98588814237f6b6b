// Issue 20, item 3: for signers, Completed next to the Inbox: once everyone signed, the document
// leaves "waiting" and shows under Completed with its signed PDF and its session page, for the
// people who signed it only (not for a manager who may read every session).
import t from 'tap'
import { buildTestApp, DEMO, login } from '../../../helpers/app.ts'
import { getPage } from '../../../helpers/pages.ts'
import { finalize, signerWithSignature } from '../signing/helpers.ts'

t.setTimeout(120_000)

t.test('a completed document moves from waiting to Completed, for its signers', async (t) => {
  const app = await buildTestApp(t)
  const admin = await signerWithSignature(app, DEMO.admin.email, 'Ada')
  const staff = await signerWithSignature(app, DEMO.staff.email, 'Sam')
  const manager = await login(app, DEMO.manager.email)
  const created = (await app.inject({ method: 'POST', url: '/api/signing-sessions', headers: { cookie: admin.cookie }, payload: { template: 'payslip', signable: 'payslip-staff-2026-03', mode: 'parallel' } })).json().data

  const before = await getPage(app, '/app/inbox', staff.cookie)
  t.match(before.body, `data-session="${created.id}"`, 'waiting first')
  t.match(before.body, 'data-completed-empty', 'nothing completed yet, and the page says so')
  t.match(new RegExp(`data-session="${created.id}">[\\s\\S]*?</tr>`).exec(before.body)?.[0] ?? '', '<td data-part>Employee</td>', 'what waits says the part by its label')

  for (const [signer, slot] of [[admin, 'payroll'], [staff, 'employee']] as const) {
    const request = created.requests.find((r: { slot: string }) => r.slot === slot).id
    t.equal((await finalize(app, signer, 'payslip', { signature: signer.signature, request, placements: [] })).statusCode, 200)
  }
  const after = await getPage(app, '/app/inbox', staff.cookie)
  t.notMatch(after.body, `data-session="${created.id}"`, 'no longer waiting')
  const row = new RegExp(`data-completed-session="${created.id}">[\\s\\S]*?</tr>`).exec(after.body)?.[0] ?? ''
  t.match(row, `href="/app/sessions/${created.id}" data-session-link`, 'its session page')
  t.match(row, `href="/api/signing-sessions/${created.id}/document" data-document-link>Signed PDF`, 'its signed PDF')
  // Issue 39 item 11: the slot's label, not its key in monospace.
  t.match(row, '<td data-part>Employee</td>', 'the part the viewer signed')
  t.notMatch(after.body, '<code>employee</code>', 'no slot key on the page')
  t.match(after.body, 'href="/app/sessions?status=completed&amp;part=signer" data-all-completed', 'and the whole list')
  t.match((await getPage(app, '/app/inbox', admin.cookie)).body, `data-completed-session="${created.id}"`, 'the other signer too')
  t.notMatch((await getPage(app, '/app/inbox', manager)).body, `data-completed-session="${created.id}"`, 'not someone who only may read it')
})
