import t from 'tap'
import { buildTestApp, DEMO, login } from '../../helpers/app.ts'
import { attributeValues, getPage } from '../../helpers/pages.ts'

// The HTML itself carries only the permitted modules: nothing is hidden later by a script.
const expected = {
  admin: { tiles: ['PEOPLE', 'ALERTS', 'ORDERS', 'REPORTS'], dock: ['INBOX', 'SEARCH'] },
  manager: { tiles: ['PEOPLE', 'ORDERS', 'REPORTS'], dock: [] },
  staff: { tiles: ['ORDERS'], dock: [] },
} as const

for (const role of ['admin', 'manager', 'staff'] as const) {
  t.test(role, async (t) => {
    const app = await buildTestApp(t)
    const page = await getPage(app, '/dashboard', await login(app, DEMO[role].email))
    t.equal(page.statusCode, 200)
    const [tiles = '', dock = ''] = page.body.split('id="dock-heading"')
    t.same(attributeValues(tiles, 'data-module'), expected[role].tiles, 'tiles')
    t.same(attributeValues(dock, 'data-module'), expected[role].dock, 'dock')
    // Issue 21: plain words, not "modules for this shift", "Dock" or "stations".
    t.match(page.body, 'Everything your role can open.')
    t.match(page.body, '>Shortcuts</h2>')
    if (expected[role].dock.length === 0) t.match(dock, 'Your role has no shortcuts.')
    t.notMatch(page.body, /shift\.|>Dock<|stations/i, 'no jargon')
    const all = [...expected.admin.tiles, ...expected.admin.dock]
    for (const code of all.filter((c) => !(expected[role].tiles as readonly string[]).includes(c) && !(expected[role].dock as readonly string[]).includes(c))) {
      t.notMatch(page.body, code, `${code} appears nowhere in the page`)
    }
  })
}

t.test('People is the wide tile and opens the People screen; Alerts is highlighted', async (t) => {
  const app = await buildTestApp(t)
  const page = await getPage(app, '/dashboard', await login(app, DEMO.admin.email))
  t.match(page.body, /<li class="tile-cell is-wide">\s*<a class="tile" href="\/admin\/users" data-module="PEOPLE">/)
  t.match(page.body, /<a class="tile is-highlighted" href="\/alerts" data-module="ALERTS">/)
})
