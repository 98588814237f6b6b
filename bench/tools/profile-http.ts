// Profiles the signed-in app under load, for finding what dominates a row of the HTTP table:
//   node --import tsx bench/tools/profile-http.ts /dashboard [seconds]   (PROFILE_RATE=2000: at a fixed rate)
//   node --import tsx bench/tools/summarize-profile.ts bench/results/profiles/<printed file>
// With DATABASE_URL=postgres://... (and USERS_STORE=database for the users) it runs on PostgreSQL,
// in a schema of its own dropped after the run.
// The V8 profiler (what --cpu-prof uses) runs only while the load runs, so start-up is left out;
// the load generator is a child process, so the profile holds the server's thread only.
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { Session } from 'node:inspector/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import pg from 'pg'
import { buildApp } from '../../host-app/app.ts'
import { loggerOptions } from '../../core/http/access-log.ts'
import { runLoad, runProbe } from '../lib/load.ts'

const url = process.argv[2] ?? '/api/users?perPage=10'
const seconds = Number(process.argv[3] ?? 8)
const storage = await mkdtemp(path.join(tmpdir(), 'bench-profile-'))
const databaseUrl = process.env.DATABASE_URL
const schema = databaseUrl ? `bench_profile_${process.pid}` : undefined
const admin = databaseUrl ? new pg.Client({ connectionString: databaseUrl }) : undefined
if (admin) {
  await admin.connect()
  await admin.query(`create schema ${schema}`)
}
// The logger npm start runs (host-app/server.ts); its lines go to /dev/null, not between the rows.
const app = await buildApp({ env: { STORAGE_PATH: storage, NODE_ENV: 'production', ...(schema ? { DATABASE_SCHEMA: schema } : {}) }, logger: loggerOptions(process.env.LOG_LEVEL ?? 'info', '/dev/null') })
await app.ready()
const login = await app.inject({ method: 'POST', url: '/api/auth/login', payload: { email: 'admin@example.com', password: 'password' } })
const setCookie = login.headers['set-cookie']
const cookie = (Array.isArray(setCookie) ? setCookie[0]! : setCookie!).split(';')[0]!
const base = await app.listen({ host: '127.0.0.1', port: 0 })
await runLoad({ url: base + url, connections: 50, duration: 2, headers: { cookie } }) // JIT warm-up
const inspector = new Session()
inspector.connect()
await inspector.post('Profiler.enable')
await inspector.post('Profiler.start')
// PROFILE_RATE=2000: at the bench's fixed rate (requests mostly alone in their turn) instead of saturation.
const rate = Number(process.env.PROFILE_RATE ?? 0)
const result = rate > 0
  ? await runProbe({ url: base + url, rate, duration: seconds, connections: 10, headers: { cookie } })
  : await runLoad({ url: base + url, connections: 50, duration: seconds, headers: { cookie } })
const { profile } = await inspector.post('Profiler.stop')
const dir = new URL('../results/profiles/', import.meta.url)
await mkdir(dir, { recursive: true })
const out = new URL(`http-${url.replace(/\W+/g, '_')}-${Date.now()}.cpuprofile`, dir)
await writeFile(out, JSON.stringify(profile))
console.log(`profile: ${out.pathname}`)
console.log(`${url}: ${Math.round(result.requestsPerSecond)} req/s, p99 ${result.latency.p99} ms`)
await app.close()
if (admin) {
  await admin.query(`drop schema ${schema} cascade`)
  await admin.end()
}
await rm(storage, { recursive: true, force: true })
