// Widgets of /dashboard: decide() chooses who sees each one before it is computed; a widget that
// throws (or answers a link off the site) shows "could not load" alone and is logged; the tiles
// and dock stay as they are. Real policy, real app (createApp), real HTTP through inject.
import { Writable } from 'node:stream'
import t from 'tap'
import { createApp, defineModules, Panel, type DashboardWidget } from '../../../core/index.ts'
import { attributeValues, getPage } from '../../helpers/pages.ts'

const access = {
  roles: { clerk: ['invoices:read', 'ORDERS'], accountant: ['invoices:*'], boss: ['reports:read'] },
  hierarchy: { boss: ['accountant'] },
  adminRoles: ['boss'],
}
const users = [
  { name: 'Carla Clerk', email: 'clerk@example.com', role: 'clerk', password: 'password' },
  { name: 'Anna Accountant', email: 'accountant@example.com', role: 'accountant', password: 'password' },
  { name: 'Bert Boss', email: 'boss@example.com', role: 'boss', password: 'password' },
]
const modules = defineModules([{ code: 'ORDERS', label: 'Orders', href: '/orders', placement: 'tile' }])

function counting() {
  const calls: Record<string, string[]> = {}
  const record = (key: string, user: { email: string }) => { (calls[key] ??= []).push(user.email) }
  const widgets: DashboardWidget[] = [
    { key: 'mine', kind: 'counter', title: 'My drafts', permission: null, compute: async (user) => { record('mine', user); return { value: 2, caption: 'drafts of yours' } } },
    { key: 'unpaid', kind: 'counter', title: 'Unpaid invoices', permission: 'invoices:update', order: 5, compute: async (user) => { record('unpaid', user); return { value: 7, link: { label: 'See them', url: '/office/invoices?status=unpaid' } } } },
    {
      key: 'latest', kind: 'table', title: 'Latest invoices', permission: 'invoices:read', columns: [{ key: 'number', label: 'Number' }, { key: 'customer', label: 'Customer' }], empty: 'No invoices yet.',
      compute: async (user, { limit }) => {
        record('latest', user)
        const rows = Array.from({ length: 9 }, (_, i) => ({ number: { text: `INV-${i}`, url: `/office/invoices/${i}` }, customer: `<b>Customer ${i}</b>` }))
        return { rows: rows.slice(0, limit + 2), total: 9 }
      },
    },
    { key: 'broken', kind: 'counter', title: 'Broken numbers', permission: 'reports:read', compute: async (user) => { record('broken', user); throw new Error('the report store is down') } },
    { key: 'off-site', kind: 'table', title: 'Elsewhere', permission: 'reports:read', columns: [{ key: 'a', label: 'A' }], empty: '-', compute: async (user) => { record('off-site', user); return { rows: [{ a: { text: 'x', url: 'javascript:alert(1)' } }] } } },
  ]
  return { calls, widgets }
}

async function appWith(t: { teardown(fn: () => unknown): void }, widgets: DashboardWidget[], lines: string[] = []) {
  const logger = { level: 'error', stream: new Writable({ write(chunk, _encoding, done) { lines.push(String(chunk)); done() } }) }
  const app = await createApp({ access, users, modules, logger, panels: [Panel.make().id('office').path('office').access('signed-in').widgets(widgets)] })
  t.teardown(() => app.close())
  return app
}

async function signIn(app: Awaited<ReturnType<typeof createApp>>, email: string) {
  const login = await app.inject({ method: 'POST', url: '/api/auth/login', payload: { email, password: 'password' } })
  return String(login.headers['set-cookie']).split(';')[0]!
}

const expected = {
  clerk: ['mine', 'latest'],
  accountant: ['unpaid', 'mine', 'latest'],
  boss: ['unpaid', 'mine', 'latest', 'broken', 'off-site'],
} as const

for (const role of ['clerk', 'accountant', 'boss'] as const) {
  t.test(`${role}: sees exactly the widgets decide() allows, and only those are computed`, async (t) => {
    const { calls, widgets } = counting()
    const app = await appWith(t, widgets)
    const page = await getPage(app, '/dashboard', await signIn(app, `${role}@example.com`))
    t.equal(page.statusCode, 200)
    t.same(attributeValues(page.body, 'data-widget'), expected[role], 'the widgets in the HTML, in order')
    t.same(Object.keys(calls).sort(), [...expected[role]].sort(), 'computed: exactly the visible ones')
    for (const key of Object.keys(calls)) t.same(calls[key], [`${role}@example.com`], `${key} computed once, for this user`)
    for (const widget of widgets.filter((w) => !(expected[role] as readonly string[]).includes(w.key))) {
      t.notMatch(page.body, widget.title, `${widget.title} is nowhere in the page`)
    }
  })
}

t.test('the widgets come after the tiles and dock, which stay as they are', async (t) => {
  const { widgets } = counting()
  const app = await appWith(t, widgets)
  const page = await getPage(app, '/dashboard', await signIn(app, 'clerk@example.com'))
  const [before = '', after = ''] = page.body.split('id="widgets-heading"')
  t.same(attributeValues(before, 'data-module'), ['ORDERS'], 'the tile')
  t.match(before, 'id="dock-heading"', 'the dock comes first')
  t.same(attributeValues(after, 'data-module'), [], 'no module among the widgets')
})

t.test('a table shows at most WIDGET_ROWS rows, escaped, with its total and its links', async (t) => {
  const { widgets } = counting()
  const app = await appWith(t, widgets)
  const page = await getPage(app, '/dashboard', await signIn(app, 'clerk@example.com'))
  const latest = page.body.split('data-widget="latest"')[1]!.split('</section>')[0]!
  t.equal([...latest.matchAll(/<tr>/g)].length, 1 + 5, 'a header row and five rows, though the widget gave seven')
  t.match(latest, '<a href="/office/invoices/0">INV-0</a>')
  t.match(latest, '&lt;b&gt;Customer 0&lt;/b&gt;', 'text is escaped')
  t.notMatch(latest, '<b>Customer')
  t.match(latest, /<span class="widget-total">9<\/span>/)
})

t.test('a widget that throws, or links off the site, says "could not load" alone and is logged', async (t) => {
  const { widgets } = counting()
  const lines: string[] = []
  const app = await appWith(t, widgets, lines)
  const page = await getPage(app, '/dashboard', await signIn(app, 'boss@example.com'))
  t.equal(page.statusCode, 200, 'the dashboard still answers')
  const part = (key: string) => page.body.split(`data-widget="${key}"`)[1]!.split('</section>')[0]!
  t.match(part('broken'), 'Could not load this.')
  t.match(part('off-site'), 'Could not load this.')
  t.notMatch(page.body, 'javascript:', 'the bad link is not sent')
  t.match(part('unpaid'), /<p class="widget-value">7<\/p>/, 'the others show')
  t.match(part('unpaid'), '<a href="/office/invoices?status=unpaid">See them</a>')
  const logged = lines.map((line) => JSON.parse(line) as { widget?: string; err?: { message: string } })
  t.same(logged.filter((l) => l.widget).map((l) => l.widget).sort(), ['broken', 'off-site'])
  t.match(logged.find((l) => l.widget === 'broken')?.err?.message, 'the report store is down')
})

t.test('a panel\'s widgets are only for those who may enter it: an admin panel\'s are not computed for others', async (t) => {
  const { calls, widgets } = counting()
  const app = await createApp({ access, users, modules, panels: [Panel.make().id('back').path('back').access('admin-roles').widgets(widgets.filter((w) => w.key === 'mine'))] })
  t.teardown(() => app.close())
  const clerk = await getPage(app, '/dashboard', await signIn(app, 'clerk@example.com'))
  t.same(attributeValues(clerk.body, 'data-widget'), [])
  t.notMatch(clerk.body, 'widgets-heading', 'no empty section either')
  t.same(calls, {}, 'not computed for a role that cannot enter the panel')
  const boss = await getPage(app, '/dashboard', await signIn(app, 'boss@example.com'))
  t.same(attributeValues(boss.body, 'data-widget'), ['mine'])
  t.same(calls, { mine: ['boss@example.com'] })
})

t.test('a widget whose own condition throws is hidden (fails closed) and logged; the page answers', async (t) => {
  const { calls, widgets } = counting()
  const lines: string[] = []
  const shaky: DashboardWidget = { key: 'shaky', kind: 'counter', title: 'Shaky', permission: null, visibleTo: () => { throw new Error('no idea') }, compute: async () => ({ value: 1 }) }
  const app = await appWith(t, [shaky, ...widgets.filter((w) => w.key === 'mine')], lines)
  const page = await getPage(app, '/dashboard', await signIn(app, 'clerk@example.com'))
  t.equal(page.statusCode, 200)
  t.same(attributeValues(page.body, 'data-widget'), ['mine'])
  t.same(Object.keys(calls), ['mine'])
  t.match(lines.map((line) => JSON.parse(line) as { widget?: string }).filter((l) => l.widget), [{ widget: 'shaky' }])
})

t.test('a widget key that is not a plain name stops the boot', async (t) => {
  await t.rejects(createApp({ access, users, modules, panels: [Panel.make().id('office').path('office').access('signed-in').widgets([{ key: 'Bad Key', kind: 'counter', title: 'x', permission: null, compute: async () => ({ value: 1 }) }])] }), /dashboard widget needs a key/)
})
