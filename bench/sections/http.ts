// Rows 1, 2 and 7: the signed-in app against bare Fastify routes serving the same bytes, and the
// API's latency while the worker pools render page images and sign documents.
//
// Processes on a 2-core machine: this process is the server (the real app and the bare baseline,
// one after the other, never at once); the client (autocannon or the probe) runs in a child
// process, so the two busiest event loops get one core each. Nothing else runs meanwhile.
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import type { IncomingMessage, Server, ServerResponse } from 'node:http'
import { monitorEventLoopDelay, performance } from 'node:perf_hooks'
import path from 'node:path'
import Fastify, { type FastifyInstance } from 'fastify'
import { compileOnce } from '../lib/start-server.ts'
import { startBackgroundWork } from '../lib/background-work.ts'
import { runLoad, runProbe, type LoadResult, type ProbeJob, type ProbeResult } from '../lib/load.ts'
import { ms, percentile, pick, rps, x, type Row } from '../lib/rows.ts'

const DURATION = Number(process.env.BENCH_DURATION ?? pick(10, 2))
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50)
const WARMUP = pick(2, 1)
const FIXED_RATE = 2000
const FIXED_RATE_SECONDS = pick(8, 2)
/** Pure CPU added to the bare JSON route by the calibration row, in µs per request. */
const BUSY_MICROS = 10

const us = (value: number) => `${value.toFixed(0)} µs CPU/req`

async function listen(app: FastifyInstance): Promise<string> {
  const address = await app.listen({ host: '127.0.0.1', port: 0 })
  return address
}

interface Measured extends LoadResult {
  /** This process's CPU time (user + system, every thread) per answered request, in µs. */
  cpuPerRequest: number
}

/**
 * A load run with the server's CPU time per request. The server is this process and the load
 * generator another, so process.cpuUsage() counts the server alone. Unlike requests per second,
 * it does not swing with how the two processes share the machine's two cores.
 */
async function measured<T extends LoadResult>(load: () => Promise<T>): Promise<T & { cpuPerRequest: number }> {
  const before = process.cpuUsage()
  const result = await load()
  const used = process.cpuUsage(before)
  return { ...result, cpuPerRequest: (used.user + used.system) / Math.max(1, result.total) }
}

/** ELD_RESOLUTION ms: how often the event-loop monitor's timer asks to run. */
const ELD_RESOLUTION = 2

interface ServerSide {
  /** How late this process's event loop ran a timer due every ELD_RESOLUTION ms, p99 and max, ms. */
  loopLate: { p99: number; max: number }
  /** From the request's 'request' event to its response's 'finish' (handed to the kernel), ms. */
  handled: { p99: number; max: number }
}

/**
 * A load run with what the server saw of it: the client's latency cannot tell the server's event
 * loop from the machine's scheduling of either process, these two figures can.
 */
async function withServerSide<T>(server: Server, load: () => Promise<T>): Promise<T & ServerSide> {
  const histogram = monitorEventLoopDelay({ resolution: ELD_RESOLUTION })
  const handled: number[] = []
  const onRequest = (_request: IncomingMessage, response: ServerResponse) => {
    const start = performance.now()
    response.once('finish', () => handled.push(performance.now() - start))
  }
  server.prependListener('request', onRequest)
  histogram.enable()
  const result = await load()
  histogram.disable()
  server.off('request', onRequest)
  return {
    ...result,
    loopLate: { p99: Math.max(0, histogram.percentile(99) / 1e6 - ELD_RESOLUTION), max: Math.max(0, histogram.max / 1e6 - ELD_RESOLUTION) },
    handled: { p99: percentile(handled, 99), max: handled.reduce((most, value) => Math.max(most, value), 0) },
  }
}

const measuredLoad = (job: Parameters<typeof runLoad>[0]): Promise<Measured> => measured(() => runLoad(job))
const measuredProbe = (job: ProbeJob): Promise<Measured & ProbeResult> => measured(() => runProbe(job))

/** Two runs combined: requests add up, latency percentiles are averaged (autocannon gives no samples). */
function combine(a: Measured, b: Measured): Measured {
  const avg = (f: (r: Measured) => number) => (f(a) + f(b)) / 2
  return {
    cpuPerRequest: (a.cpuPerRequest * a.total + b.cpuPerRequest * b.total) / Math.max(1, a.total + b.total),
    requestsPerSecond: avg((r) => r.requestsPerSecond), total: a.total + b.total, bytesPerRequest: avg((r) => r.bytesPerRequest),
    latency: { p50: avg((r) => r.latency.p50), p90: avg((r) => r.latency.p90), p99: avg((r) => r.latency.p99), max: Math.max(a.latency.max, b.latency.max), mean: avg((r) => r.latency.mean) },
    non2xx: a.non2xx + b.non2xx, errors: a.errors + b.errors, timeouts: a.timeouts + b.timeouts,
  }
}

/**
 * Ours against the baseline in A-B-B-A order, each half of DURATION, after a JIT warm-up of each:
 * on a shared, noisy machine a drift in load during the run falls on both sides alike.
 */
async function abba(a: () => Promise<Measured>, b: () => Promise<Measured>): Promise<{ a: Measured; b: Measured }> {
  const a1 = await a()
  const b1 = await b()
  const b2 = await b()
  const a2 = await a()
  return { a: combine(a1, a2), b: combine(b1, b2) }
}

export async function run(): Promise<Row[]> {
  const storage = await mkdtemp(path.join(tmpdir(), 'bench-http-'))
  // As deployed: in development Eta re-reads and re-compiles every template on every request.
  // The logger npm start runs (host-app/server.ts); its lines go to /dev/null, not between the rows.
  // The app as npm start runs it: the compiled JavaScript, not the sources through tsx (whose
  // transform names closures at run time and whose source maps every error's stack consults).
  await compileOnce()
  const { buildApp } = await import('../../dist/host-app/app.js' as string) as typeof import('../../host-app/app.ts')
  const { loggerOptions } = await import('../../dist/core/http/access-log.js' as string) as typeof import('../../core/http/access-log.ts')
  const app = await buildApp({ env: { STORAGE_PATH: storage, NODE_ENV: 'production' }, logger: loggerOptions(process.env.LOG_LEVEL ?? 'info', '/dev/null') })
  await app.ready()
  const login = await app.inject({ method: 'POST', url: '/api/auth/login', payload: { email: 'admin@example.com', password: 'password' } })
  if (login.statusCode !== 200) throw new Error(`login failed: ${login.statusCode} ${login.body}`)
  const setCookie = login.headers['set-cookie']
  // The raw pair, still URL-encoded: the decoded secure-session value contains ';'.
  const cookie = (Array.isArray(setCookie) ? setCookie[0]! : setCookie!).split(';')[0]!
  const headers = { cookie }

  const targets = { api: '/api/users?perPage=10', dashboard: '/dashboard', admin: '/admin/users' } as const
  const bodies: Record<string, string> = {}
  for (const [name, url] of Object.entries(targets)) {
    const response = await app.inject({ url, headers })
    if (response.statusCode !== 200) throw new Error(`${url}: ${response.statusCode}`)
    bodies[name] = response.body
  }

  // The baseline: bare Fastify, no session, no permission check, no security headers, serving the
  // same JSON value (serialized per request, as ours is) and static HTML of the same byte size.
  const bare = Fastify({ logger: false })
  const json = JSON.parse(bodies.api!)
  bare.get('/api/users', async () => json)
  const htmlOfSize = (bytes: number) => `<!doctype html><html><body>${'x'.repeat(Math.max(0, bytes - 41))}</body></html>`
  const staticHtml = { dashboard: htmlOfSize(Buffer.byteLength(bodies.dashboard!)), admin: htmlOfSize(Buffer.byteLength(bodies.admin!)) }
  bare.get('/dashboard', (_request, reply) => { reply.type('text/html; charset=utf-8').send(staticHtml.dashboard) })
  bare.get('/admin/users', (_request, reply) => { reply.type('text/html; charset=utf-8').send(staticHtml.admin) })

  const oursBase = await listen(app)
  const bareBase = await listen(bare)
  const results: Record<string, { ours: Measured; bare: Measured; oursAtRate: Measured; bareAtRate: Measured }> = {}
  const half = DURATION / 2
  for (const [name, url] of Object.entries(targets)) {
    await runLoad({ url: bareBase + url, connections: CONNECTIONS, duration: WARMUP })
    await runLoad({ url: oursBase + url, connections: CONNECTIONS, duration: WARMUP, headers })
    const { a, b } = await abba(
      () => measuredLoad({ url: bareBase + url, connections: CONNECTIONS, duration: half }),
      () => measuredLoad({ url: oursBase + url, connections: CONNECTIONS, duration: half, headers }),
    )
    // The same routes at a fixed rate both sides sustain: CPU per request with neither side
    // saturated, i.e. what each request costs the server, free of the batching effect below.
    // A-B-B-A as well: one run each had given the bare route 90 to 117 µs in one hour.
    const atRate = { connections: 10, duration: FIXED_RATE_SECONDS / 2, rate: FIXED_RATE }
    const rated = await abba(
      () => measuredProbe({ ...atRate, url: bareBase + url }),
      () => measuredProbe({ ...atRate, url: oursBase + url, headers }),
    )
    results[name] = { ours: b, bare: a, oursAtRate: rated.b, bareAtRate: rated.a }
  }
  const calibration = await busyWorkCalibration(bareBase, json)
  await bare.close()

  const rows: Row[] = []
  const ratioRow = (id: string, name: keyof typeof targets, what: string, barRatio: number) => {
    const { ours, bare, oursAtRate, bareAtRate } = results[name]!
    const ratio = ours.requestsPerSecond / bare.requestsPerSecond
    rows.push({
      id, what, ours: `${rps(ours.requestsPerSecond)} (p99 ${ms(ours.latency.p99)})`, baseline: `${rps(bare.requestsPerSecond)} (p99 ${ms(bare.latency.p99)})`,
      ratio: x(ratio), bar: `>= ${barRatio.toFixed(2)}`, met: ratio >= barRatio,
      data: { url: targets[name], bodyBytes: Buffer.byteLength(bodies[name]!), connections: CONNECTIONS, durationSeconds: DURATION, ours, bare, ratio, oursAtRate, bareAtRate },
    })
    const added = oursAtRate.cpuPerRequest - bareAtRate.cpuPerRequest
    rows.push({
      id: `${id}'`, what: `  the same: server CPU per request at a fixed ${FIXED_RATE} req/s (bare / ours = throughput ratio on a core of its own)`,
      ours: `${us(oursAtRate.cpuPerRequest)} (+${us(added)})`, baseline: us(bareAtRate.cpuPerRequest),
      ratio: x(bareAtRate.cpuPerRequest / oursAtRate.cpuPerRequest), bar: '', met: null,
      data: { rate: FIXED_RATE, ours: oursAtRate, bare: bareAtRate, addedMicros: added },
    })
  }
  ratioRow('1', 'api', `GET ${targets.api} signed in, ${CONNECTIONS} conn ${DURATION}s / bare JSON`, 0.8)
  ratioRow('2a', 'dashboard', `GET /dashboard signed in (${Buffer.byteLength(bodies.dashboard!)} B) / bare static HTML`, 0.5)
  ratioRow('2b', 'admin', `GET /admin/users signed in (${Buffer.byteLength(bodies.admin!)} B) / bare static HTML`, 0.5)
  rows.push(calibration)

  rows.push(...await latencyUnderBackgroundWork(app.server, oursBase + targets.api, headers, storage))
  await app.close()
  await rm(storage, { recursive: true, force: true })
  return rows
}

/**
 * Context for rows 1-2: how far throughput falls for a known cost. The bare JSON route against
 * itself plus BUSY_MICROS of pure computation per request. When the server, not autocannon, is
 * the bottleneck, autocannon sleeps between responses and every write has to wake it: on this
 * 2-vCPU VM the ratio falls much faster than the added CPU alone explains.
 */
async function busyWorkCalibration(bareBase: string, json: unknown): Promise<Row> {
  const busy = Fastify({ logger: false })
  busy.get('/api/users', async () => {
    const until = process.hrtime.bigint() + BigInt(BUSY_MICROS * 1000)
    while (process.hrtime.bigint() < until);
    return json
  })
  const busyBase = await listen(busy)
  await runLoad({ url: busyBase + '/api/users', connections: CONNECTIONS, duration: WARMUP })
  const { a, b } = await abba(
    () => measuredLoad({ url: bareBase + '/api/users', connections: CONNECTIONS, duration: DURATION / 4 }),
    () => measuredLoad({ url: busyBase + '/api/users', connections: CONNECTIONS, duration: DURATION / 4 }),
  )
  await busy.close()
  const ratio = b.requestsPerSecond / a.requestsPerSecond
  return {
    id: 'c', what: `  calibration: bare JSON + ${BUSY_MICROS} µs of pure CPU per request / bare JSON, ${CONNECTIONS} conn`,
    ours: `${rps(b.requestsPerSecond)}, ${us(b.cpuPerRequest)}`, baseline: `${rps(a.requestsPerSecond)}, ${us(a.cpuPerRequest)}`,
    ratio: x(ratio), bar: '', met: null, data: { busyMicros: BUSY_MICROS, busy: b, bare: a, ratio },
  }
}

/**
 * Rows 7 and 7'. Latency, not throughput: requests on a steady schedule well below saturation
 * (the open-loop probe, not autocannon's once-a-second bursts), so p99 shows how long a request
 * waits, while bench/lib/background-work.ts keeps both worker pools busy.
 */
async function latencyUnderBackgroundWork(server: Server, url: string, headers: Record<string, string>, storage: string): Promise<Row[]> {
  const probe = (job: ProbeJob) => withServerSide(server, () => measuredProbe(job))
  const rate = Number(process.env.BENCH_LATENCY_RATE ?? 500)
  const job = { url, headers, connections: 10, duration: DURATION / 2, rate }
  await runProbe({ ...job, duration: WARMUP })
  const quiet1 = await probe(job)

  const background = await startBackgroundWork(storage)
  const { done } = background
  const before = { ...done }
  const busyRuns = [await probe(job), await probe(job)]
  const busy = combine(busyRuns[0]!, busyRuns[1]!)
  const during = { renders: done.renders - before.renders, signatures: done.signatures - before.signatures }
  await background.stop()
  const quiet2 = await probe(job)
  const quiet = combine(quiet1, quiet2)
  // Mean p99s, and the worst max, of the runs on each side.
  const sides = (runs: (ProbeResult & ServerSide)[]) => {
    const mean = (of: (run: ProbeResult & ServerSide) => number) => runs.reduce((sum, run) => sum + of(run), 0) / runs.length
    return {
      handledP99: mean((run) => run.handled.p99),
      loopLateP99: mean((run) => run.loopLate.p99),
      loopLateMax: Math.max(...runs.map((run) => run.loopLate.max)),
      // The probe's own lateness against its schedule: its process waiting for a core, not our server.
      probeLateP99: mean((run) => run.clientLateness.p99),
    }
  }
  const seen = { busy: sides(busyRuns), quiet: sides([quiet1, quiet2]) }
  const seenText = (side: ReturnType<typeof sides>) => `handled ${ms(side.handledP99)}; loop late ${ms(side.loopLateP99)} (max ${ms(side.loopLateMax)}); probe late ${ms(side.probeLateP99)}`

  const ratio = busy.latency.p99 / quiet.latency.p99
  return [{
    id: '7', what: `GET /api/users p99 at a steady ${rate} req/s while ${during.renders} renders + ${during.signatures} signatures ran (${DURATION}s) / idle before and after`,
    ours: `p99 ${ms(busy.latency.p99)} (p50 ${ms(busy.latency.p50)})`, baseline: `p99 ${ms(quiet.latency.p99)} (p50 ${ms(quiet.latency.p50)})`,
    ratio: x(ratio), bar: '<= 2.00', met: ratio <= 2,
    data: { rate, quiet, busy, backgroundDone: during, ratio, seen },
  }, {
    id: "7'", what: `  the same, p99 as the server saw it: request event to response handed to the kernel; how late the event loop ran a ${ELD_RESOLUTION} ms timer; how late the probe process sent`,
    ours: seenText(seen.busy), baseline: seenText(seen.quiet),
    ratio: '', bar: '', met: null, data: seen,
  }]
}
