import t from 'tap'
import { buildTestApp, DEMO, login } from '../../helpers/app.ts'

t.test('a delete lasts until restart; after a restart every seeded record is back', async (t) => {
  const first = await buildTestApp(t)
  const admin = await login(first, DEMO.admin.email)
  t.equal((await first.inject({ method: 'DELETE', url: `/api/users/${DEMO.staff.id}`, headers: { cookie: admin } })).statusCode, 204)
  t.equal((await first.inject({ url: '/api/users', headers: { cookie: admin } })).json().meta.total, 26)
  t.equal((await first.inject({ url: `/api/users/${DEMO.staff.id}`, headers: { cookie: admin } })).statusCode, 404)
  await first.close()

  const second = await buildTestApp(t)
  const again = await login(second, DEMO.admin.email)
  t.equal((await second.inject({ url: '/api/users', headers: { cookie: again } })).json().meta.total, 27)
  t.equal((await second.inject({ url: `/api/users/${DEMO.staff.id}`, headers: { cookie: again } })).json().data.email, DEMO.staff.email)
  t.ok(await login(second, DEMO.staff.email), 'the restored user can sign in')
})
