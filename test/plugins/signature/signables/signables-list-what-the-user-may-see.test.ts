import t from 'tap'
import { buildTestApp, DEMO, login } from '../../../helpers/app.ts'

interface Row { id: string; title: string; signatories: Array<{ slot: string; userId: string | null; role: string | null; order: number | null }> }

t.test('GET /api/signables/:templateKey lists the records the user signs; read-any sees all', async (t) => {
  const app = await buildTestApp(t)
  const list = async (email: string, key: string) => {
    const response = await app.inject({ url: `/api/signables/${key}`, headers: { cookie: await login(app, email) } })
    t.equal(response.statusCode, 200, `${email} ${key}`)
    return (response.json() as { data: Row[] }).data
  }

  for (const key of ['daily-time-record', 'payslip', 'contract']) {
    const all = await list(DEMO.admin.email, key)
    for (const person of [DEMO.admin, DEMO.manager, DEMO.staff]) {
      t.ok(all.some((row) => row.signatories.some((s) => s.userId === person.id && (s.role === 'employee'))), `${key}: ${person.id} has a record of their own`)
    }
  }

  const staff = await list(DEMO.staff.email, 'daily-time-record')
  t.ok(staff.length >= 1)
  t.ok(staff.every((row) => row.signatories.some((s) => s.userId === DEMO.staff.id)), 'staff sees only records they sign')
  t.same(staff[0]!.signatories.map((s) => [s.slot, s.role, s.order]), [['employee', 'employee', 1], ['supervisor', 'supervisor', 2]])
  t.match(staff[0]!.title, /^Daily time record - Sam Staff/, 'the record overrides the trait\'s title')

  const manager = await list(DEMO.manager.email, 'daily-time-record')
  t.ok(manager.some((row) => row.signatories.find((s) => s.slot === 'employee')?.userId === DEMO.staff.id), 'the manager sees the staff record they countersign')
  t.notOk(manager.some((row) => row.signatories.every((s) => s.userId !== DEMO.manager.id)), 'and nothing they do not sign')

  const adminAll = await list(DEMO.admin.email, 'daily-time-record')
  t.ok(adminAll.length > staff.length && adminAll.length >= manager.length, 'signatures:read-any (admin) sees every record')

  const payslips = await list(DEMO.staff.email, 'payslip')
  t.match(payslips[0]!.title, /^Payslip #payslip-staff/, 'the trait\'s default title')
})

t.test('unknown template 404, invalid key 404, signed out 401', async (t) => {
  const app = await buildTestApp(t)
  const cookie = await login(app, DEMO.staff.email)
  const missing = await app.inject({ url: '/api/signables/no-such-template', headers: { cookie } })
  t.equal(missing.statusCode, 404)
  t.equal(missing.json().code, 'ERR_TEMPLATE_NOT_FOUND')
  t.equal((await app.inject({ url: '/api/signables/..%2Fetc', headers: { cookie } })).statusCode, 404)
  const anonymous = await app.inject({ url: '/api/signables/payslip' })
  t.equal(anonymous.statusCode, 401)
  t.equal(anonymous.json().code, 'ERR_UNAUTHENTICATED')
})
