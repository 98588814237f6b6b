import t from 'tap'
import { buildTestApp, DEMO, login } from '../../helpers/app.ts'

t.test('GET /api/users: pages, sort, search, meta', async (t) => {
  const app = await buildTestApp(t)
  const cookie = await login(app, DEMO.staff.email)
  const get = async (query: string) => app.inject({ url: `/api/users${query}`, headers: { cookie } })

  const first = (await get('')).json()
  t.same(first.meta, { page: 1, perPage: 10, total: 27 })
  t.equal(first.data.length, 10)
  t.same(Object.keys(first.data[0]).sort(), ['email', 'id', 'name', 'role'], 'no password hash')

  const all: string[] = []
  for (let page = 1; page <= 3; page++) all.push(...(await get(`?page=${page}&perPage=10`)).json().data.map((u: { id: string }) => u.id))
  t.equal(new Set(all).size, 27, 'pages neither overlap nor skip')
  t.equal((await get('?page=4')).json().data.length, 0, 'past the end: empty')

  const names = (await get('?perPage=100&sort=name')).json().data.map((u: { name: string }) => u.name)
  t.same(names, [...names].sort((a: string, b: string) => a.localeCompare(b, 'en', { sensitivity: 'base' })))
  const desc = (await get('?perPage=100&sort=-name')).json().data.map((u: { name: string }) => u.name)
  t.same(desc, [...names].reverse())
  const roles = (await get('?perPage=100&sort=role')).json().data.map((u: { role: string }) => u.role)
  t.same(roles, [...roles].sort())

  const found = (await get('?search=MANAGER%40EXAMPLE')).json()
  t.same(found.data.map((u: { id: string }) => u.id), [DEMO.manager.id], 'e-mail, case-insensitive')
  t.equal((await get('?search=ada')).json().data[0].name, 'Ada Admin', 'name')
  t.same((await get('?search=zzzz')).json(), { data: [], meta: { page: 1, perPage: 10, total: 0 } })
})

t.test('bad query parameters are 400 naming the field', async (t) => {
  const app = await buildTestApp(t)
  const cookie = await login(app, DEMO.staff.email)
  for (const [query, field] of [['?page=0', 'query.page'], ['?perPage=101', 'query.perPage'], ['?perPage=abc', 'query.perPage'], ['?sort=password', 'query.sort'], ['?limit=5', 'limit']]) {
    const res = await app.inject({ url: `/api/users${query}`, headers: { cookie } })
    t.equal(res.statusCode, 400, query!)
    t.match(res.json().message, field!)
  }
})

t.test('signed out, any query: 401, before the query is read', async (t) => {
  const app = await buildTestApp(t)
  for (const query of ['', '?token=x', '?perPage=9999', '?sort=password']) {
    const response = await app.inject({ url: `/api/users${query}` })
    t.same([response.statusCode, response.json().code], [401, 'ERR_UNAUTHENTICATED'], `GET /api/users${query}`)
  }
})
