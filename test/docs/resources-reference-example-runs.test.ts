// docs/reference/resources.md ends with a complete file: taken from the page as written (the
// package name pointed at core/index.ts), it defines its resources, mounts in a panel, filters,
// and its bulk action works for the role that may pay and is refused (403) for one that may not.
import { randomBytes } from 'node:crypto'
import { readFile, rm, writeFile } from 'node:fs/promises'
import path from 'node:path'
import t from 'tap'
import { PROJECT_ROOT } from '../../config/app.ts'
import { compilePolicy, createCoreApp, fixedUsers, Panel, setupViews, type AnyResource } from '../../core/index.ts'
import { actorOf } from '../core/resource/fixtures/office-actor.ts'

/** The fenced block right below `<!-- file: NAME -->`. */
function fileBlock(markdown: string, name: string): string | undefined {
  const lines = markdown.split('\n')
  const at = lines.indexOf(`<!-- file: ${name} -->`)
  if (at < 0 || !lines[at + 1]!.startsWith('```')) return undefined
  const end = lines.findIndex((line, i) => i > at + 1 && line.startsWith('```'))
  return lines.slice(at + 2, end).join('\n')
}

t.test('the complete example of the resources reference', async (t) => {
  const markdown = await readFile(path.join(PROJECT_ROOT, 'docs/reference/resources.md'), 'utf8')
  const code = fileBlock(markdown, 'bills.ts')
  t.ok(code, 'the page has its bills.ts')
  const file = path.join(PROJECT_ROOT, 'test/docs', `.bills-${process.pid}.ts`)
  await writeFile(file, code!.replace("from 'fastify-panels-signature'", `from '${path.join(PROJECT_ROOT, 'core/index.ts')}'`))
  t.teardown(() => rm(file, { force: true }))
  const { BillResource, SupplierResource } = await import(file) as { BillResource: AnyResource; SupplierResource: AnyResource }

  const roles = { roles: { payer: ['bills:*', 'suppliers:read'], reader: ['bills:read', 'suppliers:read'] }, adminRoles: ['payer'] }
  const users = await fixedUsers(Object.keys(roles.roles).map((role) => ({ id: `u-${role}`, name: role, email: `${role}@example.com`, role, password: 'password' })))
  const app = await createCoreApp({
    bodyLimit: 1024 * 1024, requestTimeoutMs: 30_000,
    session: { key: randomBytes(32), cookieName: 'sid', ttlSeconds: 3600, secure: 'auto' },
    throttle: { windowSeconds: 60, maxFailuresPerEmail: 50, maxFailuresPerClient: 50 },
    policy: compilePolicy(roles), users,
  })
  t.teardown(() => app.close())
  await app.register(setupViews, { root: PROJECT_ROOT, publicDir: path.join(PROJECT_ROOT, 'public'), production: false })
  await app.register(Panel.make().id('office').path('office').access('signed-in').resources([BillResource, SupplierResource]))
  await app.ready()

  const reader = await actorOf(app, 'reader')
  const unpaid = await reader.get('/office/bills?paid=false')
  t.match(unpaid.body, 'B-001')
  t.notMatch(unpaid.body, 'B-002', 'the ternary filter narrows the list')
  t.match(unpaid.body, '€120.00')
  const refused = await reader.send('POST', '/office/bills/bulk/mark-paid', [['ids', 'b1']], { accept: 'application/json' })
  t.equal(refused.statusCode, 403, 'a reader may not pay')
  t.match(refused.json(), { code: 'ERR_ACCESS_DENIED' })

  const payer = await actorOf(app, 'payer')
  t.match((await payer.get('/office/bills/b1')).body, 'href="/office/bills/b1/edit"', 'a view page with its Edit button')
  const form = await payer.get('/office/bills/b1/edit')
  t.match(form.body, '<option value="s1" selected>Acme Paper</option>', 'the supplier select offers the suppliers')
  t.equal((await payer.send('POST', '/office/bills/bulk/mark-paid', [['ids', 'b1']])).statusCode, 200)
  t.notMatch((await payer.get('/office/bills?paid=false')).body, 'B-001', 'paid now')
})
