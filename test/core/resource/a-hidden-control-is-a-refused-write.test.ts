import t from 'tap'
import { ERR_ACCESS_DENIED, ERR_CONFLICT } from '../../../core/http/errors.ts'
import { Panel } from '../../../core/panel/panel.ts'
import { allRules, defineRule } from '../../../core/resource/rule.ts'
import { userResource } from '../../../host-app/users/user-resource.ts'
import { createUserService } from '../../../host-app/users/user-service.ts'
import { DEMO, login } from '../../helpers/app.ts'
import { buildAppWith, getPage } from '../../helpers/pages.ts'

t.test('a rule is one object: allows() hides, assert() refuses with its own error, in order', async (t) => {
  const positive = defineRule((n: number) => n > 0, (n) => ERR_ACCESS_DENIED(`${n} is not positive`))
  const even = defineRule((n: number) => n % 2 === 0, (n) => ERR_CONFLICT(`${n} is odd`))
  const both = allRules(positive, even)
  t.same([2, 3, -2, -3].map((n) => both.allows(n)), [true, false, false, false])
  t.doesNotThrow(() => both.assert(2))
  t.throws(() => both.assert(3), { code: 'ERR_CONFLICT', message: '3 is odd' })
  t.throws(() => both.assert(-3), { code: 'ERR_ACCESS_DENIED', message: '-3 is not positive' }, 'the first rule that says no gives the error')
})

t.test('the People screen declares the very actions the user service enforces', async (t) => {
  const app = await buildAppWith(t, () => {})
  const service = createUserService(app.policy, app.users)
  const actions = userResource(service, app.policy).open((resource) => resource.actions)
  t.equal(actions.view, service.rules.actions.read)
  t.equal(actions.edit, service.rules.actions.update)
  t.equal(actions.delete, service.rules.actions.delete)
})

// Every actor against every target: the page shows a control exactly when the API accepts the
// write. A panel open to every signed-in user, so managers and staff see the page too.
const SHOWN = {
  admin: { edit: ['u-admin', 'u-manager', 'u-staff'], delete: ['u-manager', 'u-staff'] },
  manager: { edit: ['u-manager', 'u-staff'], delete: [] },
  staff: { edit: [], delete: [] },
} as const
const TARGETS = [DEMO.admin, DEMO.manager, DEMO.staff]

for (const [role, shown] of Object.entries(SHOWN)) {
  t.test(`${role}: a control is on the page if and only if the server accepts its write`, async (t) => {
    const app = await buildAppWith(t, async (app) => {
      const service = createUserService(app.policy, app.users)
      await app.register(Panel.make().id('people').path('people').access('signed-in').resources([userResource(service, app.policy)]))
    })
    const admin = await login(app, DEMO.admin.email)
    const cookie = await login(app, DEMO[role as keyof typeof DEMO].email)
    const pages = new Map<string, string>()
    for (const target of TARGETS) {
      const page = await getPage(app, `/people/users/${target.id}`, cookie)
      t.equal(page.statusCode, 200)
      pages.set(target.id, page.body)
    }
    const editable: string[] = []
    const deletable: string[] = []
    for (const target of TARGETS) {
      const body = pages.get(target.id)!
      const editShown = /<form class="form" hx-post=/.test(body)
      const { name } = (await app.inject({ url: `/api/users/${target.id}`, headers: { cookie: admin } })).json().data
      const patch = await app.inject({ method: 'PATCH', url: `/api/users/${target.id}`, headers: { cookie }, payload: { name } })
      t.equal(editShown, patch.statusCode === 200, `edit ${target.id}: shown ${editShown}, PATCH ${patch.statusCode}`)
      if (editShown) editable.push(target.id)
    }
    for (const target of TARGETS) {
      const deleteShown = pages.get(target.id)!.includes('data-action="delete"')
      const del = await app.inject({ method: 'DELETE', url: `/api/users/${target.id}`, headers: { cookie } })
      t.equal(deleteShown, del.statusCode === 204, `delete ${target.id}: shown ${deleteShown}, DELETE ${del.statusCode}`)
      if (deleteShown) deletable.push(target.id)
    }
    t.same({ edit: editable, delete: deletable }, shown)
  })
}
