import t from 'tap'
import { buildTestApp, DEMO, login } from '../../helpers/app.ts'
import { getPage } from '../../helpers/pages.ts'

t.test('/app is open to staff, manager and admin, closed to the signed out', async (t) => {
  const app = await buildTestApp(t)
  for (const role of ['staff', 'manager', 'admin'] as const) {
    const response = await getPage(app, '/app', await login(app, DEMO[role].email))
    t.equal(response.statusCode, 200, role)
    t.match(response.body, /My workspace/)
    t.notMatch(response.body, /href="\/admin\/users"/, `${role} sees no admin navigation in /app`)
  }
  const anonymous = await getPage(app, '/app')
  t.equal(anonymous.statusCode, 303)
  t.equal(anonymous.headers.location, '/login?next=%2Fapp')
})
