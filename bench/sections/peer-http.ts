// Rows P1 and P2: what `npm start` runs against the admin panel people would pick instead,
// AdminJS 7 on Fastify 5 (bench/peers/adminjs-server.mjs: a session cookie, a `users` resource
// over @adminjs/sql). Both read the same 27 users from the same PostgreSQL database, created for
// this run and dropped after it: our app seeds it (USERS_STORE=database) and AdminJS reads that
// table. Ours is also measured as `npm start` runs by default (SQLite, users in memory).
//
// Row P2c asks for the People page as a crowd would: the 50 connections are 10 admins (the demo's
// and nine added to the table both sides read, after the rows above are measured) on 5 different
// pages, each connection a different pair. Fifty copies of one request flatter anything that
// shares work between requests arriving together (core/db/reads-of-one-turn.ts); this row shows
// what is left of it when they differ.
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
import { runLoad, type LoadJob, type LoadResult } from '../lib/load.ts'
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
  /**
   * The People page as a crowd asks for it: connection i is one of several people on one of
   * several pages. Ours on PostgreSQL gets it once its admins exist (before the crowd's turn).
   */
  crowd: Array<{ headers: Record<string, string>; paths: string[] }>
  crowdPages: string[][]
  /** Ours: signs one of its accounts in. */
  signIn?: (email: string) => Promise<string>
  stop(): Promise<void>
}

/** Pages of the People list a crowd asks for: sort (ours), sort and direction (AdminJS), page. */
const CROWD_PAGES = [['name', 'asc', 1], ['name', 'asc', 2], ['email', 'desc', 1], ['email', 'asc', 2], ['role', 'desc', 1]] as const
const CROWD_PEOPLE = 10

/** Connection i as person i % people on page floor(i / people): every connection a different pair. */
function crowdOf(cookies: string[], pages: string[][]): Side['crowd'] {
  return Array.from({ length: cookies.length * pages.length }, (_, i) => ({ headers: { cookie: cookies[i % cookies.length]! }, paths: pages[Math.floor(i / cookies.length) % pages.length]! }))
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
    const cookie = await signInToAdminJs(base)
    const list = '/admin/api/resources/users/actions/list'
    // Its sessions are kept in its memory and it looks nobody up per request: one sign-in per person of the crowd.
    const cookies = [cookie]
    while (cookies.length < CROWD_PEOPLE) cookies.push(await signInToAdminJs(base))
    const pages = CROWD_PAGES.map(([field, direction, page]) => [`/admin/resources/users?page=${page}&sortBy=${field}&direction=${direction}`, `${list}?page=${page}&sortBy=${field}&direction=${direction}`])
    return {
      name: 'AdminJS 7 (@adminjs/sql, PostgreSQL)', base, cookie, pid: child.pid!, pgApp: 'bench-adminjs', stop,
      // Its People page is a React shell that fetches the rows from its list API.
      paths: { json: [`${list}?perPage=10`], page: ['/admin/resources/users', `${list}?page=1`] },
      crowd: crowdOf(cookies, pages), crowdPages: pages,
    }
  } catch (error) {
    await stop()
    throw error
  }
}

async function signInToAdminJs(base: string): Promise<string> {
  const login = await fetch(`${base}/admin/login`, { method: 'POST', redirect: 'manual', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'email=admin%40example.com&password=password' })
  const cookie = login.headers.getSetCookie().find((c) => c.startsWith('adminjs='))?.split(';')[0]
  if (login.status !== 302 || !cookie) throw new Error(`AdminJS login: ${login.status}`)
  return cookie
}

/**
 * Only admins may open the People page and the demo has one: the crowd's other admins are added
 * to the table both sides read, once the rows that compare 27 users have been measured.
 */
async function addCrowdAdmins(databaseUrl: string, count: number): Promise<string[]> {
  const client = new pg.Client({ connectionString: databaseUrl })
  await client.connect()
  try {
    const emails = Array.from({ length: count - 1 }, (_, i) => `crowd.admin${i + 1}@example.com`)
    // The demo admin's hash: the demo password signs them in.
    await client.query(`insert into users (id, name, email, role, password_hash, session_version, created_at)
      select 'u-crowd-' || n, 'Crowd Admin ' || n, 'crowd.admin' || n || '@example.com', 'admin', password_hash, 0, now()::text
      from users, generate_series(1, $1::int) as n where email = 'admin@example.com'`, [count - 1])
    return ['admin@example.com', ...emails]
  } finally {
    await client.end()
  }
}

async function startOurs(name: string, env: Record<string, string>, pgApp?: string): Promise<Side> {
  const server: StartedServer = await startServer(undefined, env)
  try {
    const cookie = await server.login()
    // Defaults left out, as the page's own links do (it redirects other spellings to that one).
    const pages = CROWD_PAGES.map(([field, direction, page]) => {
      const query = new URLSearchParams()
      if (field !== 'name' || direction !== 'asc') query.set('sort', `${direction === 'desc' ? '-' : ''}${field}`)
      if (page > 1) query.set('page', String(page))
      return [`/admin/users${query.size > 0 ? `?${query}` : ''}`]
    })
    return {
      name, base: server.base, cookie, pid: server.child.pid!, pgApp, stop: () => server.stop(),
      paths: { json: ['/api/users?perPage=10'], page: ['/admin/users'] },
      crowd: [], crowdPages: pages, signIn: (email) => server.login(email),
    }
  } catch (error) {
    await server.stop()
    throw error
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

type Target = 'json' | 'page' | 'crowd'

/** The load of one target on one side: 50 copies of one signed-in request, or the crowd. */
function loadOf(side: Side, target: Target, seconds: number): LoadJob {
  if (target === 'crowd') return { url: side.base + side.crowd[0]!.paths[0], connectionsAs: side.crowd, connections: CONNECTIONS, duration: seconds }
  const paths = side.paths[target]
  return { url: side.base + paths[0], paths, connections: CONNECTIONS, duration: seconds, headers: { cookie: side.cookie } }
}

/** Requests per page of a target on a side (AdminJS's page is its shell and its list API). */
const requestsPerPage = (side: Side, target: Target) => (target === 'crowd' ? side.crowd[0]!.paths.length : side.paths[target].length)

async function measure(side: Side, target: Target, seconds: number, monitor: pg.Client): Promise<Measured> {
  const before = await cpuSnapshot(side, monitor)
  const result: LoadResult = await runLoad(loadOf(side, target, seconds))
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

/** Every person of the crowd may open every page of it (a redirect would be measured as a page). */
async function checkCrowd(side: Side): Promise<void> {
  for (const as of side.crowd) {
    for (const p of as.paths) {
      const response = await fetch(side.base + p, { headers: as.headers, redirect: 'manual' })
      await response.arrayBuffer()
      if (response.status !== 200) throw new Error(`${side.name} ${p} as one of the crowd: ${response.status} ${response.headers.get('location') ?? ''}`)
    }
  }
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

    const results: Record<Target, Measured[]> = { json: [], page: [], crowd: [] }
    for (const target of ['json', 'page', 'crowd'] as const) {
      // The crowd only on PostgreSQL, where several people's requests arriving together could share statements.
      const measured = target === 'crowd' ? [1, 2] : [0, 1, 2]
      if (target === 'crowd') {
        const emails = await addCrowdAdmins(databaseUrl(database), CROWD_PEOPLE)
        sides[1]!.crowd = crowdOf(await Promise.all(emails.map(sides[1]!.signIn!)), sides[1]!.crowdPages)
        for (const i of measured) await checkCrowd(sides[i]!)
      }
      for (const i of measured) await runLoad(loadOf(sides[i]!, target, WARMUP))
      const runs = new Map<number, Measured[]>(measured.map((i) => [i, []]))
      for (const i of [...measured, ...[...measured].reverse()]) runs.get(i)!.push(await measure(sides[i]!, target, DURATION / 2, monitor))
      for (const [i, r] of runs) {
        const perRequest = requestsPerPage(sides[i]!, target)
        const total = r.reduce((sum, m) => sum + m.total, 0)
        results[target][i] = {
          // Pages (or JSON answers) per second, and CPU per page: a page is one or more requests.
          rps: r.reduce((sum, m) => sum + m.rps, 0) / r.length / perRequest,
          total: total / perRequest,
          cpuMicros: r.reduce((sum, m) => sum + m.cpuMicros, 0) / (total / perRequest),
          pgMicros: r.reduce((sum, m) => sum + m.pgMicros, 0) / (total / perRequest),
          p99: Math.max(...r.map((m) => m.p99)),
        }
      }
    }

    const [mem, pgOurs, adminjs] = [0, 1, 2] as const
    const rssOf = (i: number) => rss[sides[i]!.name]!
    const fmt = (m: Measured, unit: string) => `${Math.round(m.rps).toLocaleString('en-US')} ${unit}/s, ${Math.round(m.cpuMicros)} µs CPU/${unit === 'req' ? 'req' : 'page'}${m.pgMicros ? ` (PostgreSQL ${Math.round(m.pgMicros)})` : ''}`
    const row = (id: string, target: Target, ours: number, what: string, unit: string, bar?: number): Row => {
      const a = results[target][ours]!
      const b = results[target][adminjs]!
      const ratio = a.rps / b.rps
      return {
        id, what, ours: fmt(a, unit), baseline: `AdminJS ${fmt(b, unit)}`, ratio: x(ratio),
        bar: bar ? `>= ${bar.toFixed(2)}` : '', met: bar ? ratio >= bar : null,
        data: { target, ours: sides[ours]!.name, oursPaths: target === 'crowd' ? sides[ours]!.crowd.map((c) => c.paths) : sides[ours]!.paths[target], peerPaths: target === 'crowd' ? sides[adminjs]!.crowd.map((c) => c.paths) : sides[adminjs]!.paths[target], oursResult: a, peerResult: b, ratio, cpuRatio: b.cpuMicros / a.cpuMicros, connections: CONNECTIONS, durationSeconds: DURATION, bytes },
      }
    }
    return [
      row('P1a', 'json', mem, `JSON list of 10 users signed in, ${CONNECTIONS} conn: ours, users in memory / AdminJS list API on PostgreSQL (CPU incl. its PostgreSQL backends)`, 'req'),
      row('P1b', 'json', pgOurs, `  the same, both on PostgreSQL: ours USERS_STORE=database / AdminJS (CPU of each incl. its PostgreSQL backends)`, 'req'),
      row('P2a', 'page', mem, `People page with its 10 rows: ours /admin/users, users in memory / AdminJS shell + list API (2 requests)`, 'pages', 5),
      row('P2b', 'page', pgOurs, `  the same, both on PostgreSQL: ours USERS_STORE=database / AdminJS`, 'pages', 3),
      row('P2c', 'crowd', pgOurs, `  the same as a crowd: ${CONNECTIONS} conn as ${CROWD_PEOPLE} admins signed in on ${CROWD_PAGES.length} pages (sorts, page 1 or 2), each connection a different pair`, 'pages'),
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
