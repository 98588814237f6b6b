// Rows P1 and P2: what `npm start` runs against the admin panel people would pick instead,
// AdminJS 7 on Fastify 5 (bench/peers/adminjs-server.mjs: a session cookie, a `users` resource
// over @adminjs/sql). Both read the same 27 users from the same PostgreSQL database, created for
// this run and dropped after it: our app seeds it (USERS_STORE=database) and AdminJS reads that
// table. Ours is also measured as `npm start` runs by default (SQLite, users in memory).
//
// Three server processes, one loaded at a time, the client (autocannon) in a child process. Each
// row alternates the sides A-B-C-C-B-A so that drift in the machine's load falls on all of them.
// CPU per request is the server process's, plus that of the PostgreSQL backends serving it
// (found by application_name in pg_stat_activity).
import { spawn, type ChildProcess } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import pg from 'pg'
import { runLoad, type LoadResult } from '../lib/load.ts'
import { ensurePeersInstalled, PEERS_DIR } from '../lib/peers.ts'
import { mib, pick, x, type Row } from '../lib/rows.ts'
import { freePort, processCpuMicros, processRss, sleep, startServer, type StartedServer } from '../lib/start-server.ts'

const DURATION = Number(process.env.BENCH_DURATION ?? pick(10, 2))
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50)
const WARMUP = pick(2, 1)
const DATABASE_URL = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test'

interface Side {
  name: string
  base: string
  cookie: string
  pid: number
  /** application_name of its PostgreSQL connections, if it has any. */
  pgApp?: string
  paths: { json: string[]; page: string[] }
  stop(): Promise<void>
}

interface Measured { rps: number; total: number; cpuMicros: number; p99: number; /** Of cpuMicros, the PostgreSQL backends' share. */ pgMicros: number }

function databaseUrl(database: string, applicationName?: string): string {
  const url = new URL(DATABASE_URL)
  url.pathname = `/${database}`
  if (applicationName) url.searchParams.set('application_name', applicationName)
  return url.href
}

/** AdminJS in a process of its own, as its documentation deploys it (NODE_ENV=production). */
async function startAdminJs(database: string): Promise<Side> {
  ensurePeersInstalled()
  const port = await freePort()
  const base = `http://127.0.0.1:${port}`
  const bundleDir = await mkdtemp(path.join(tmpdir(), 'bench-adminjs-'))
  // cwd: its bundler resolves Babel's plugins from there.
  const child: ChildProcess = spawn(process.execPath, ['adminjs-server.mjs'], {
    cwd: PEERS_DIR,
    env: { ...process.env, PORT: String(port), DATABASE_URL: databaseUrl(database, 'bench-adminjs'), COOKIE_SECRET: randomBytes(32).toString('hex'), NODE_ENV: 'production', ADMIN_JS_TMP_DIR: path.join(bundleDir, '.adminjs') },
    stdio: ['ignore', 'ignore', 'inherit'],
  })
  const exited = new Promise((resolve) => child.once('exit', resolve))
  const stop = async () => {
    if (child.exitCode === null) { child.kill('SIGTERM'); await exited }
    await rm(bundleDir, { recursive: true, force: true })
  }
  try {
    // Its start bundles the front end's components (rollup + Babel): allow two minutes.
    const deadline = Date.now() + 120_000
    for (;;) {
      try {
        if ((await fetch(`${base}/admin/login`)).ok) break
      } catch {}
      if (Date.now() > deadline || child.exitCode !== null) throw new Error('AdminJS did not answer within 120 s')
      await sleep(200)
    }
    const login = await fetch(`${base}/admin/login`, { method: 'POST', redirect: 'manual', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'email=admin%40example.com&password=password' })
    const cookie = login.headers.getSetCookie().find((c) => c.startsWith('adminjs='))?.split(';')[0]
    if (login.status !== 302 || !cookie) throw new Error(`AdminJS login: ${login.status}`)
    const list = '/admin/api/resources/users/actions/list'
    return {
      name: 'AdminJS 7 (@adminjs/sql, PostgreSQL)', base, cookie, pid: child.pid!, pgApp: 'bench-adminjs', stop,
      // Its People page is a React shell that fetches the rows from its list API.
      paths: { json: [`${list}?perPage=10`], page: ['/admin/resources/users', `${list}?page=1`] },
    }
  } catch (error) {
    await stop()
    throw error
  }
}

async function startOurs(name: string, env: Record<string, string>, pgApp?: string): Promise<Side> {
  const server: StartedServer = await startServer(undefined, env)
  return {
    name, base: server.base, cookie: await server.login(), pid: server.child.pid!, pgApp, stop: () => server.stop(),
    paths: { json: ['/api/users?perPage=10'], page: ['/admin/users'] },
  }
}

/** CPU so far of the side's process and of the PostgreSQL backends serving it, µs per pid. */
async function cpuSnapshot(side: Side, monitor: pg.Client): Promise<Map<number, number>> {
  const pids = [side.pid]
  if (side.pgApp) {
    const { rows } = await monitor.query<{ pid: number }>('select pid from pg_stat_activity where application_name = $1', [side.pgApp])
    pids.push(...rows.map((r) => r.pid))
  }
  return new Map(await Promise.all(pids.map(async (pid) => [pid, await processCpuMicros(pid)] as const)))
}

async function measure(side: Side, paths: string[], seconds: number, monitor: pg.Client): Promise<Measured> {
  const before = await cpuSnapshot(side, monitor)
  const result: LoadResult = await runLoad({ url: side.base + paths[0], paths, connections: CONNECTIONS, duration: seconds, headers: { cookie: side.cookie } })
  const after = await cpuSnapshot(side, monitor)
  // A backend that appeared during the run counts from zero; one that left is lost (rare: the
  // pools keep their connections while they are busy).
  let cpuMicros = 0
  for (const [pid, micros] of after) cpuMicros += micros - (before.get(pid) ?? 0)
  const pgMicros = cpuMicros - ((after.get(side.pid) ?? 0) - (before.get(side.pid) ?? 0))
  return { rps: result.requestsPerSecond, total: result.total, cpuMicros, pgMicros, p99: result.latency.p99 }
}

/** Checks that every side answers its paths signed in, with 10 rows, before anything is timed. */
async function checkAnswers(side: Side): Promise<Record<string, number>> {
  const bytes: Record<string, number> = {}
  for (const p of [...side.paths.json, ...side.paths.page]) {
    const response = await fetch(side.base + p, { headers: { cookie: side.cookie }, redirect: 'manual' })
    const body = await response.text()
    if (response.status !== 200) throw new Error(`${side.name} ${p}: ${response.status}`)
    if (response.headers.get('content-type')?.includes('json')) {
      const json = JSON.parse(body)
      const rows = (json.data ?? json.records) as unknown[]
      if (rows?.length !== 10) throw new Error(`${side.name} ${p}: ${rows?.length} rows, expected 10`)
    }
    bytes[p] = Buffer.byteLength(body)
  }
  return bytes
}

export async function run(): Promise<Row[]> {
  const database = `bench_peers_${process.pid}`
  const monitor = new pg.Client({ connectionString: DATABASE_URL })
  await monitor.connect().catch((error: Error) => {
    throw new Error(`the AdminJS rows need PostgreSQL (BENCH_DATABASE_URL, else TEST_DATABASE_URL, else postgres://postgres@127.0.0.1:5432/test): ${error.message}`)
  })
  await monitor.query(`create database ${database}`)
  const sides: Side[] = []
  try {
    sides.push(await startOurs('ours, users in memory (npm start)', {}))
    // Seeds the 27 users into the new database; AdminJS (started after it) reads that table.
    sides.push(await startOurs('ours, users on PostgreSQL', { DATABASE_URL: databaseUrl(database, 'bench-ours'), USERS_STORE: 'database' }, 'bench-ours'))
    sides.push(await startAdminJs(database))
    const bytes = Object.fromEntries(await Promise.all(sides.map(async (s) => [s.name, await checkAnswers(s)] as const)))
    await sleep(pick(5000, 1000))
    const rss = Object.fromEntries(await Promise.all(sides.map(async (s) => [s.name, await processRss(s.pid)] as const)))

    const results: Record<'json' | 'page', Measured[]> = { json: [], page: [] }
    for (const target of ['json', 'page'] as const) {
      for (const side of sides) await runLoad({ url: side.base + side.paths[target][0], paths: side.paths[target], connections: CONNECTIONS, duration: WARMUP, headers: { cookie: side.cookie } })
      const runs: Measured[][] = sides.map(() => [])
      for (const i of [...sides.keys(), ...[...sides.keys()].reverse()]) runs[i]!.push(await measure(sides[i]!, sides[i]!.paths[target], DURATION / 2, monitor))
      results[target] = runs.map((r, i) => {
        const perRequest = sides[i]!.paths[target].length
        const total = r.reduce((sum, m) => sum + m.total, 0)
        return {
          // Pages (or JSON answers) per second, and CPU per page: a page is one or more requests.
          rps: r.reduce((sum, m) => sum + m.rps, 0) / r.length / perRequest,
          total: total / perRequest,
          cpuMicros: r.reduce((sum, m) => sum + m.cpuMicros, 0) / (total / perRequest),
          pgMicros: r.reduce((sum, m) => sum + m.pgMicros, 0) / (total / perRequest),
          p99: Math.max(...r.map((m) => m.p99)),
        }
      })
    }

    const [mem, pgOurs, adminjs] = [0, 1, 2] as const
    const rssOf = (i: number) => rss[sides[i]!.name]!
    const fmt = (m: Measured, unit: string) => `${Math.round(m.rps).toLocaleString('en-US')} ${unit}/s, ${Math.round(m.cpuMicros)} µs CPU/${unit === 'req' ? 'req' : 'page'}${m.pgMicros ? ` (PostgreSQL ${Math.round(m.pgMicros)})` : ''}`
    const row = (id: string, target: 'json' | 'page', ours: number, what: string, unit: string, bar?: number): Row => {
      const a = results[target][ours]!
      const b = results[target][adminjs]!
      const ratio = a.rps / b.rps
      return {
        id, what, ours: fmt(a, unit), baseline: `AdminJS ${fmt(b, unit)}`, ratio: x(ratio),
        bar: bar ? `>= ${bar.toFixed(2)}` : '', met: bar ? ratio >= bar : null,
        data: { target, ours: sides[ours]!.name, oursPaths: sides[ours]!.paths[target], peerPaths: sides[adminjs]!.paths[target], oursResult: a, peerResult: b, ratio, cpuRatio: b.cpuMicros / a.cpuMicros, connections: CONNECTIONS, durationSeconds: DURATION, bytes },
      }
    }
    return [
      row('P1a', 'json', mem, `JSON list of 10 users signed in, ${CONNECTIONS} conn: ours, users in memory / AdminJS list API on PostgreSQL (CPU incl. its PostgreSQL backends)`, 'req'),
      row('P1b', 'json', pgOurs, `  the same, both on PostgreSQL: ours USERS_STORE=database / AdminJS (CPU of each incl. its PostgreSQL backends)`, 'req'),
      row('P2a', 'page', mem, `People page with its 10 rows: ours /admin/users, users in memory / AdminJS shell + list API (2 requests)`, 'pages', 5),
      row('P2b', 'page', pgOurs, `  the same, both on PostgreSQL: ours USERS_STORE=database / AdminJS`, 'pages', 3),
      {
        id: 'P0', what: 'RSS a few seconds after start (signed in once, no load): ours in memory; ours on PostgreSQL / AdminJS',
        ours: `${mib(rssOf(mem))}; ${mib(rssOf(pgOurs))}`, baseline: `AdminJS ${mib(rssOf(adminjs))}`, ratio: x(rssOf(mem) / rssOf(adminjs)), bar: '', met: null, data: { rss },
      },
    ]
  } finally {
    for (const side of sides) await side.stop().catch(() => {})
    await monitor.query(`drop database if exists ${database} with (force)`).catch(() => {})
    await monitor.end()
  }
}
