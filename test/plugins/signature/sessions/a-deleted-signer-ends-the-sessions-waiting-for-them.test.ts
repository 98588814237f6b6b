// Issue 39, item 8: deleting a person who still had to sign left the session active forever, with
// the signer's name null. Now the sessions waiting for them end as cancelled with the reason
// "signer removed" (their request declined with it), in one transaction with the mails: the
// creator and the other signers are told, the deleted person is not. Other sessions are untouched.
import t from 'tap'
import { buildTestApp, DEMO, login } from '../../../helpers/app.ts'

t.setTimeout(240_000)

t.test('deleting a pending signer cancels their sessions with "signer removed" and tells the creator', async (t) => {
  const app = await buildTestApp(t)
  const admin = await login(app, DEMO.admin.email)
  const create = async (signable: string) => {
    const created = await app.inject({ method: 'POST', url: '/api/signing-sessions', headers: { cookie: admin }, payload: { template: 'daily-time-record', signable, mode: 'parallel' } })
    t.equal(created.statusCode, 201, created.body)
    return created.json().data as { id: string; requests: Array<{ id: string; slot: string; signer: { id: string } }> }
  }
  const staffs = await create('dtr-staff-2026-03')
  const managers = await create('dtr-manager-2026-03')
  const db = app.signature.database.db
  const before = new Set((await db.selectFrom('signature_outbox').select('id').execute()).map((r) => r.id))

  const deleted = await app.inject({ method: 'DELETE', url: `/api/users/${DEMO.staff.id}`, headers: { cookie: admin } })
  t.equal(deleted.statusCode, 204, deleted.body)

  const detail = (await app.inject({ url: `/api/signing-sessions/${staffs.id}`, headers: { cookie: admin } })).json().data
  t.equal(detail.status, 'cancelled', 'the session waiting for the deleted signer ended')
  t.match(detail.events.at(-1), { event: 'cancelled', actor: null, detail: 'signer removed' })
  t.match(detail.requests.find((r: { slot: string }) => r.slot === 'employee'), { status: 'declined', declineReason: 'signer removed' })
  t.equal((await app.inject({ url: `/api/signing-sessions/${managers.id}`, headers: { cookie: admin } })).json().data.status, 'active', 'a session without them goes on')

  const mails = (await db.selectFrom('signature_outbox').select(['id', 'channel', 'topic', 'target']).where('channel', '=', 'mail').execute())
    .filter((m) => !before.has(m.id))
  const told = mails.filter((m) => m.topic === 'cancelled').map((m) => m.target).sort()
  t.same(told, [DEMO.admin.id, DEMO.manager.id].sort(), 'the creator and the other signer are told; the deleted person is not')
})
