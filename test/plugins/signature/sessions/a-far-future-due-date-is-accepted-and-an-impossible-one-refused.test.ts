// Issue 39, item 9: a valid far-future due date got "the due date must be in the future". Due dates
// are stored as ISO strings and compared as strings, so a year after 9999 ("+010000-...") sorted
// before today; and a day that does not exist (2026-02-30) passed the check and failed later. Now
// every real day or date-time up to the end of 9999 is accepted as the instant it names, and the
// rest is refused next to the field with what is wrong, nothing written.
import t from 'tap'
import { buildTestApp, DEMO, login } from '../../../helpers/app.ts'

t.setTimeout(120_000)

t.test('far-future due dates are accepted; later and impossible ones refused with what is wrong', async (t) => {
  const app = await buildTestApp(t)
  const admin = await login(app, DEMO.admin.email)
  const create = (dueAt: string) => app.inject({
    method: 'POST', url: '/api/signing-sessions', headers: { cookie: admin },
    payload: { template: 'daily-time-record', signable: 'dtr-staff-2026-03', mode: 'parallel', dueAt },
  })
  const cancel = (id: string) => app.inject({ method: 'POST', url: `/api/signing-sessions/${id}/cancel`, headers: { cookie: admin }, payload: {} })
  for (const [dueAt, stored] of [['9999-12-31', '9999-12-31T23:59:59.999Z'], ['2999-01-01T00:00:00+05:00', '2998-12-31T19:00:00.000Z'], ['2100-06-30', '2100-06-30T23:59:59.999Z']]) {
    const created = await create(dueAt!)
    t.equal(created.statusCode, 201, `${dueAt}: ${created.body}`)
    t.equal(created.json().data.dueAt, stored, `${dueAt} is stored as the instant it names`)
    t.equal(created.json().data.expired, false)
    t.equal((await cancel(created.json().data.id)).statusCode, 200)
  }
  const sessions = async () => (await app.inject({ url: '/api/signing-sessions', headers: { cookie: admin } })).json().data.length
  const before = await sessions()
  for (const [dueAt, said] of [['+010000-01-01T00:00:00Z', /at most 9999-12-31/], ['10000-01-01', /at most 9999-12-31/], ['2026-02-30', /a date \(YYYY-MM-DD\)/], ['tomorrow', /a date \(YYYY-MM-DD\)/]] as const) {
    const refused = await create(dueAt)
    t.equal(refused.statusCode, 400, `${dueAt}: ${refused.body}`)
    t.equal(refused.json().code, 'ERR_VALIDATION')
    t.match(refused.json().message, said, dueAt)
    t.match(refused.json().message, /body\.dueAt/, 'names the field')
  }
  t.equal(await sessions(), before, 'nothing written')
})
