// Issue 39, item 9: user names accepted CR/LF, and a name reaches mail headers and bodies, the
// certificate of completion and log lines. Creating or renaming someone with a line break or
// another control character in the name is 400 ERR_VALIDATION naming the field; nothing written.
import t from 'tap'
import { buildTestApp, DEMO, login } from '../../helpers/app.ts'

t.test('names with line breaks or control characters are refused, create and rename alike', async (t) => {
  const app = await buildTestApp(t)
  const cookie = await login(app, DEMO.admin.email)
  const count = async () => (await app.inject({ url: '/api/users?perPage=100', headers: { cookie } })).json().meta.total
  const before = await count()
  // Described by code points: a raw U+2028 in a test's name would break the TAP stream itself.
  const described = (name: string) => [...name].map((c) => (c < ' ' || c > '~' ? `U+${c.codePointAt(0)!.toString(16).padStart(4, '0')}` : c)).join('')
  for (const name of ['Eve\r\nBcc: everyone@example.com', 'Eve\nAdmin', 'Eve\rX', 'Eve\u2028X', 'Eve\u0000X', 'Eve\u001b[31mX']) {
    const created = await app.inject({ method: 'POST', url: '/api/users', headers: { cookie }, payload: { name, email: 'eve@example.com', role: 'staff', password: 'password123' } })
    t.equal(created.statusCode, 400, `create ${described(name)}`)
    t.equal(created.json().code, 'ERR_VALIDATION')
    t.match(created.json().message, /body\.name: one line/)
    const renamed = await app.inject({ method: 'PATCH', url: `/api/users/${DEMO.staff.id}`, headers: { cookie }, payload: { name } })
    t.equal(renamed.statusCode, 400, `rename ${described(name)}`)
    t.equal(renamed.json().code, 'ERR_VALIDATION')
  }
  t.equal(await count(), before, 'nobody created')
  t.equal((await app.inject({ url: `/api/users/${DEMO.staff.id}`, headers: { cookie } })).json().data.name, 'Sam Staff', 'nobody renamed')
  const fine = await app.inject({ method: 'PATCH', url: `/api/users/${DEMO.staff.id}`, headers: { cookie }, payload: { name: '  Sam Q. Staff-Ödön  ' } })
  t.equal(fine.statusCode, 200, fine.body)
  t.equal(fine.json().data.name, 'Sam Q. Staff-Ödön')
})
