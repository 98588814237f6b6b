// Lists the SQL statements one signed-in request issues on PostgreSQL, for finding queries a
// page could do without:
//   DATABASE_URL=postgres://postgres@127.0.0.1:5432/test node --import tsx bench/tools/count-queries.ts /admin/users /api/users?perPage=10
// The app runs with users in the database, in a schema of its own (dropped after), and every
// statement pg is asked to run is recorded, with its time as this process saw it.
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import pg from 'pg'
import { writeStampOf } from '../../core/db/database.ts'
import { buildApp } from '../../host-app/app.ts'
import { eventually } from '../../test/helpers/eventually.ts'

const urls = process.argv.slice(2).length > 0 ? process.argv.slice(2) : ['/admin/users', '/api/users?perPage=10']
const DATABASE_URL = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test'
const schema = `count_queries_${process.pid}`
const admin = new pg.Client({ connectionString: DATABASE_URL })
await admin.connect()
await admin.query(`create schema ${schema}`)

const seen: { text: string; ms: number }[] = []
let recording = false
const query = pg.Client.prototype.query as (...args: unknown[]) => unknown
pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
  const config = args[0] as string | { text: string }
  const text = typeof config === 'string' ? config : config.text
  if (!recording) return query.apply(this, args)
  const started = performance.now()
  // A submitted Query (how core/db/postgres-prepared-statements.ts runs named ones) reports through its callback.
  const submitted = config as { submit?: unknown; callback?: (...a: unknown[]) => void }
  if (typeof submitted.submit === 'function' && submitted.callback) {
    const callback = submitted.callback
    submitted.callback = (...a: unknown[]) => { seen.push({ text, ms: performance.now() - started }); callback(...a) }
    return query.apply(this, args)
  }
  const result = query.apply(this, args)
  if (result && typeof (result as Promise<unknown>).then === 'function') {
    (result as Promise<unknown>).then(() => seen.push({ text, ms: performance.now() - started }), () => seen.push({ text: `(failed) ${text}`, ms: 0 }))
  } else {
    seen.push({ text, ms: 0 })
  }
  return result
} as typeof pg.Client.prototype.query

const storage = await mkdtemp(path.join(tmpdir(), 'count-queries-'))
const app = await buildApp({ env: { STORAGE_PATH: storage, NODE_ENV: 'production', DATABASE_URL, DATABASE_SCHEMA: schema, USERS_STORE: 'database' }, logger: false })
try {
  await app.ready()
  const login = await app.inject({ method: 'POST', url: '/api/auth/login', payload: { email: 'admin@example.com', password: 'password' } })
  const setCookie = login.headers['set-cookie']
  const cookie = (Array.isArray(setCookie) ? setCookie[0]! : setCookie!).split(';')[0]!
  for (const url of urls) {
    // The first requests warm what is done once (prepared names, lazy indexes); the last is counted.
    await app.inject({ url, headers: { cookie } })
    // What is kept until the database changes (the Inbox count) is kept once this instance hears other instances' changes.
    const stamp = writeStampOf(app.signature.database.db)
    if (stamp) await eventually(() => stamp() === stamp(), 5000)
    await app.inject({ url, headers: { cookie } })
    seen.length = 0
    recording = true
    const response = await app.inject({ url, headers: { cookie } })
    recording = false
    await new Promise((resolve) => setTimeout(resolve, 50))
    console.log(`${url}: ${response.statusCode}, ${seen.length} statement(s)`)
    for (const { text, ms } of seen) console.log(`  ${ms.toFixed(2)} ms  ${text.replace(/\s+/g, ' ')}`)
  }
} finally {
  await app.close()
  await admin.query(`drop schema ${schema} cascade`)
  await admin.end()
  await rm(storage, { recursive: true, force: true })
}
