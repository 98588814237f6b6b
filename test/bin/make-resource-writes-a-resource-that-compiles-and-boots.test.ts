// npm run make:resource (issue 37, item 8): from a table in a scratch SQLite database (and, when it
// answers, a PostgreSQL schema) the generator writes a resource file that typechecks as written,
// mounts in an app, lists, searches and creates through HTTP; it refuses to overwrite without
// --force and names an unknown table, each with a stable code, exit 1 and nothing written.
import { execFile } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { existsSync } from 'node:fs'
import { mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { promisify } from 'node:util'
import pg from 'pg'
import t, { type Test } from 'tap'
import type { Kysely } from 'kysely'
import { createApp, openDatabase, Panel, type AnyResource, type Database } from '../../core/index.ts'
import { PROJECT_ROOT } from '../../config/app.ts'
import { postgresUnreachable, TEST_DATABASE_URL } from '../core/db/engines.ts'
import { csrfMeta, getPage, htmxWrite } from '../helpers/pages.ts'

const run = promisify(execFile)

/** A host's folder: its own files, the project's node_modules (zod, kysely) as an installed host has them. */
async function scratchHost(t: { teardown(fn: () => unknown): void }) {
  const dir = await mkdtemp(path.join(tmpdir(), 'make-resource-'))
  t.teardown(() => rm(dir, { recursive: true, force: true }))
  await symlink(path.join(PROJECT_ROOT, 'node_modules'), path.join(dir, 'node_modules'))
  await writeFile(path.join(dir, 'package.json'), JSON.stringify({ name: 'scratch-host', private: true, type: 'module' }))
  return dir
}

async function generate(env: Record<string, string>, ...args: string[]) {
  const clean = Object.fromEntries(Object.entries(process.env).filter(([key]) => !key.startsWith('DATABASE_') && key !== 'INIT_CWD')) as Record<string, string>
  try {
    const { stdout, stderr } = await run(process.execPath, ['--import', 'tsx', 'bin/make-resource.ts', ...args], { cwd: PROJECT_ROOT, env: { ...clean, ...env } })
    return { code: 0, stdout, stderr }
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string }
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr }
  }
}

async function createInvoices(db: Kysely<any>) {
  await db.schema.createTable('invoices')
    .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('number', 'varchar(20)', (c) => c.notNull().unique())
    .addColumn('customer', 'varchar(120)', (c) => c.notNull())
    .addColumn('contact_email', 'text')
    .addColumn('amount', 'bigint', (c) => c.notNull())
    .addColumn('rate', 'numeric')
    .addColumn('paid', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('issued_on', 'date')
    .addColumn('notes', 'text')
    .execute()
  await db.schema.createTable('no_id').addColumn('code', 'integer', (c) => c.primaryKey()).execute()
}

const access = { roles: { clerk: ['invoices:read'], accountant: ['invoices:*'] }, adminRoles: ['accountant'] }
const users = [
  { name: 'Carla Clerk', email: 'clerk@example.com', role: 'clerk', password: 'password' },
  { name: 'Anna Accountant', email: 'accountant@example.com', role: 'accountant', password: 'password' },
]

async function typecheck(t: Test, dir: string, file: string) {
  await writeFile(path.join(dir, 'tsconfig.json'), JSON.stringify({ extends: path.join(PROJECT_ROOT, 'tsconfig.json'), include: [file] }))
  try {
    await run(process.execPath, [path.join(PROJECT_ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', path.join(dir, 'tsconfig.json')], { cwd: dir })
    t.equal('', '', 'tsc finds nothing')
  } catch (error) {
    t.equal((error as { stdout: string }).stdout, '', 'tsc finds nothing')
  }
}

async function bootAndUse(t: Test, file: string, database: Database<any>, paid: { yes: string }) {
  const generated = await import(file) as { invoiceResource(db: Kysely<any>): AnyResource }
  const app = await createApp({ access, users, panels: [Panel.make().id('office').path('office').access('signed-in').resources([generated.invoiceResource(database.db)])] })
  t.teardown(() => app.close())
  const signIn = async (email: string) => String((await app.inject({ method: 'POST', url: '/api/auth/login', payload: { email, password: 'password' } })).headers['set-cookie']).split(';')[0]!
  const accountant = await signIn('accountant@example.com')

  const empty = await getPage(app, '/office/invoices', accountant)
  t.equal(empty.statusCode, 200, 'the list opens')
  const form = await getPage(app, '/office/invoices/new', accountant)
  t.equal(form.statusCode, 200, 'the create form opens')
  for (const id of ['number', 'customer', 'contact_email', 'amount', 'rate', 'paid', 'issued_on', 'notes']) t.match(form.body, `id="field-${id}"`, `a field for ${id}`)
  t.match(form.body, /id="field-contact_email" name="contact_email" type="email"/, 'an e-mail column gets an e-mail field')
  t.match(form.body, /<textarea[^>]*id="field-notes"/, 'notes get a text area')
  const token = csrfMeta(form.body)

  const bad = await htmxWrite(app, 'POST', '/office/invoices', accountant, token, { number: '', customer: 'Acme', contact_email: 'not-an-address', amount: 'x', rate: '', paid: paid.yes, issued_on: '', notes: '' })
  t.equal(bad.statusCode, 422, 'invalid fields are refused')
  t.equal(Number((await database.db.selectFrom('invoices').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n), 0, 'nothing written')

  const created = await htmxWrite(app, 'POST', '/office/invoices', accountant, token, { number: '2026-001', customer: 'Acme <Ltd>', contact_email: '', amount: '12500', rate: '7.5', paid: paid.yes, issued_on: '2026-11-27', notes: '' })
  t.equal(created.statusCode, 200, `created ${created.statusCode === 200 ? '' : created.body}`)
  const location = String(created.headers['hx-redirect'])
  t.match(location, /^\/office\/invoices\/[0-9a-f-]{36}$/, 'sent to the new record, with a UUID id')
  const stored = await database.db.selectFrom('invoices').selectAll().executeTakeFirstOrThrow()
  t.match(stored, { number: '2026-001', customer: 'Acme <Ltd>', contact_email: null, notes: null })
  t.equal(Number(stored.amount), 12500)
  t.equal(Number(stored.rate), 7.5)
  t.ok(Number(stored.paid) === 1 || stored.paid === true, 'paid stored as true')

  const record = await getPage(app, location, accountant)
  t.equal(record.statusCode, 200)
  t.match(record.body, 'Invoice 2026-001')
  const list = await getPage(app, '/office/invoices?search=acme', accountant)
  t.match(list.body, 'Acme &lt;Ltd&gt;', 'found by a search on a text column, escaped')
  t.notMatch((await getPage(app, '/office/invoices?search=nobody', accountant)).body, 'Acme &lt;Ltd&gt;')
  t.equal((await getPage(app, '/office/invoices?sort=-amount', accountant)).statusCode, 200, 'sorts on a numeric column')

  const clerk = await signIn('clerk@example.com')
  t.equal((await getPage(app, '/office/invoices', clerk)).statusCode, 200, 'a reader lists')
  const refused = await htmxWrite(app, 'POST', '/office/invoices', clerk, csrfMeta((await getPage(app, '/office/invoices', clerk)).body), { number: '2026-002', customer: 'X', contact_email: '', amount: '1', rate: '', paid: paid.yes, issued_on: '', notes: '' })
  t.equal(refused.statusCode, 403, 'and may not create: the declared action is enforced')
}

t.test('SQLite: generate, refuse to overwrite, typecheck, boot, list and create', async (t) => {
  const dir = await scratchHost(t)
  const storage = path.join(dir, 'storage')
  const database = openDatabase<any>({ sqliteFile: path.join(storage, 'database', 'app.sqlite') })
  t.teardown(() => database.close())
  await createInvoices(database.db)
  const env = { STORAGE_PATH: storage }
  const file = path.join(dir, 'resources', 'invoice-resource.ts')

  const first = await generate(env, 'Invoice', '--table', 'invoices', '--out', file)
  t.equal(first.code, 0, first.stderr)
  t.match(first.stdout, `Wrote ${file}`)
  const source = await readFile(file, 'utf8')
  t.match(source, "searchFields: ['number', 'customer', 'contact_email', 'notes']", 'search on the text columns')

  const again = await generate(env, 'Invoice', '--table', 'invoices', '--out', file)
  t.equal(again.code, 1, 'an existing file: exit 1')
  t.match(again.stderr, /^ERR_RESOURCE_FILE_EXISTS: .*--force/m)
  await writeFile(file, source + '// edited by hand\n')
  t.match(await readFile(file, 'utf8'), 'edited by hand')
  t.match((await generate(env, 'Invoice', '--table', 'invoices', '--out', file)).stderr, 'ERR_RESOURCE_FILE_EXISTS')
  t.match(await readFile(file, 'utf8'), 'edited by hand', 'the existing file is untouched')
  const forced = await generate(env, 'Invoice', '--table', 'invoices', '--out', file, '--force')
  t.equal(forced.code, 0, '--force replaces it')
  t.equal(await readFile(file, 'utf8'), source)

  const unknown = await generate(env, 'Invoice', '--table', 'invoicez', '--out', path.join(dir, 'x.ts'))
  t.equal(unknown.code, 1)
  t.match(unknown.stderr, /^ERR_TABLE_NOT_FOUND: No table invoicez .*its tables: .*invoices/m, 'an unknown table is named, with the tables there are')
  t.notOk(existsSync(path.join(dir, 'x.ts')), 'nothing written')
  const noId = await generate(env, 'Code', '--table', 'no_id', '--out', path.join(dir, 'y.ts'))
  t.match(noId.stderr, /^ERR_TABLE_WITHOUT_ID: /m)
  t.notOk(existsSync(path.join(dir, 'y.ts')), 'nothing written')
  const usage = await generate(env, 'invoice')
  t.equal(usage.code, 1)
  t.match(usage.stderr, /^ERR_GENERATOR_USAGE: /m)
  const noDatabase = await generate({ STORAGE_PATH: path.join(dir, 'elsewhere') }, 'Invoice', '--table', 'invoices', '--out', path.join(dir, 'z.ts'))
  t.match(noDatabase.stderr, /^ERR_TABLE_NOT_FOUND: .*does not exist/m, 'no database file: said so, and none is made')
  t.notOk(existsSync(path.join(dir, 'elsewhere', 'database', 'app.sqlite')))

  await typecheck(t, dir, file)
  await bootAndUse(t, file, database, { yes: '1' })
})

t.test('PostgreSQL (DATABASE_URL): the same file works on its types', { skip: await postgresUnreachable() ?? false }, async (t) => {
  const dir = await scratchHost(t)
  const schema = `t_${randomBytes(6).toString('hex')}`
  const admin = new pg.Client({ connectionString: TEST_DATABASE_URL })
  await admin.connect()
  await admin.query(`create schema ${schema}`)
  const database = openDatabase<any>({ url: TEST_DATABASE_URL, schema, listen: false })
  t.teardown(async () => {
    await database.close()
    await admin.query(`drop schema ${schema} cascade`)
    await admin.end()
  })
  await createInvoices(database.db)
  const file = path.join(dir, 'invoice-resource.ts')
  const made = await generate({ DATABASE_URL: TEST_DATABASE_URL, DATABASE_SCHEMA: schema, STORAGE_PATH: path.join(dir, 'storage') }, 'Invoice', '--table', 'invoices', '--out', file)
  t.equal(made.code, 0, made.stderr)
  t.match(await readFile(file, 'utf8'), '(PostgreSQL)')
  await typecheck(t, dir, file)
  await bootAndUse(t, file, database, { yes: 'true' })
})
