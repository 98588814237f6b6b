import t from 'tap'
import type { UserSearchField } from '../../../core/auth/user-repository.ts'
import { Panel } from '../../../core/panel/panel.ts'
import { userResource } from '../../../host-app/users/user-resource.ts'
import { createUserService } from '../../../host-app/users/user-service.ts'
import { DEMO, login } from '../../helpers/app.ts'
import { attributeValues, buildAppWith, getPage } from '../../helpers/pages.ts'

// The store is the one the environment chooses: run once as is (memory) and once with
// DATABASE_URL=... USERS_STORE=database for the database store.
const PANELS: Record<string, UserSearchField[]> = { 'by-email': ['email'], 'by-name': ['name'], 'by-both': ['name', 'email'] }

t.test('the People search looks in the resource\'s searchFields and nowhere else', async (t) => {
  const app = await buildAppWith(t, async (app) => {
    const service = createUserService(app.policy, app.users)
    for (const [id, searchFields] of Object.entries(PANELS)) {
      await app.register(Panel.make().id(id).path(id).access('admin-roles').resources([userResource(service, app.policy, { searchFields })]))
    }
  })
  const cookie = await login(app, DEMO.admin.email)
  const found = async (panel: string, search: string) => {
    const response = await getPage(app, `/${panel}/users?search=${encodeURIComponent(search)}`, cookie)
    t.equal(response.statusCode, 200)
    return attributeValues(response.body, 'data-row-id')
  }
  // "Ada Admin" <admin@example.com>: "ada" is only in the name, "admin@" only in the e-mail.
  t.same(await found('by-email', 'ada'), [], 'searchFields [email] does not match on name')
  t.same(await found('by-name', 'ada'), [DEMO.admin.id])
  t.same(await found('by-both', 'ada'), [DEMO.admin.id], 'searchFields [name, email] matches on name')
  t.same(await found('by-email', 'admin@'), [DEMO.admin.id])
  t.same(await found('by-name', 'admin@'), [], 'searchFields [name] does not match on e-mail')
  t.same(await found('by-both', 'admin@'), [DEMO.admin.id], 'and [name, email] on e-mail')

  t.match((await getPage(app, '/by-email/users', cookie)).body, 'placeholder="Search by e-mail"', 'the search box names what it searches')
  t.match((await getPage(app, '/by-both/users', cookie)).body, 'placeholder="Search by name or e-mail"')
})
