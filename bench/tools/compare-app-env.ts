// CPU per signed-in request of two builds of the app that differ only in environment settings,
// in one process, A-B-B-A at a steady rate (the fixed-rate probe of the bench, in a child):
//   node --max-semi-space-size=4 --import tsx bench/tools/compare-app-env.ts SESSION_CACHE_ENTRIES=0 SESSION_CACHE_ENTRIES=10000 [url] [rate] [seconds] [rounds]
// process.cpuUsage() counts every thread of this process (the log transport's too); the app not
// being measured is idle meanwhile. Both log as npm start does, to /dev/null.
import { mkdtemp, rm } from 'node:fs/promises'
import { loadavg, tmpdir } from 'node:os'
import path from 'node:path'
import type { FastifyInstance, FastifyServerOptions } from 'fastify'
import pino from 'pino'
import { loggerOptions } from '../../core/http/access-log.ts'
import { buildApp } from '../../host-app/app.ts'
import { runLoad, runProbe } from '../lib/load.ts'
import { median } from '../lib/rows.ts'

const [a = 'SESSION_CACHE_ENTRIES=0', b = 'SESSION_CACHE_ENTRIES=10000', url = '/api/users?perPage=10', rate = '1500', seconds = '5', rounds = '3'] = process.argv.slice(2)
const envOf = (spec: string) => Object.fromEntries(spec.split(',').filter(Boolean).map((pair) => { const [key, value] = pair.split('='); return [key!, /^\d+$/.test(value!) ? Number(value) : value] }))

// LOGGER=... (a pseudo-setting of this tool, not of the app) swaps the log destination, to compare
// their cost: absent, what npm start runs (core/http/access-log.ts); 'transport', pino/file in a
// worker thread (the earlier policy); 'buffered', the asynchronous destination writing only once
// 4 KiB are waiting (and at least once a second).
function logger(mode: string | undefined): FastifyServerOptions['logger'] {
  const level = process.env.LOG_LEVEL ?? 'info'
  if (mode === 'transport') return { level, transport: { target: 'pino/file', options: { destination: '/dev/null' } } }
  // 'buffered': sonic-boom's own batching, string mode, 4 KiB; 'buffer16k': its buffer mode with a
  // Buffer per line, 16,000 bytes (the policy of 2026-11-27, before batched-log-destination.ts).
  if (mode === 'buffered' || mode === 'buffer16k') {
    const bytes = mode === 'buffer16k'
    const stream = pino.destination({ dest: '/dev/null', sync: false, minLength: bytes ? 16_000 : 4096, contentMode: bytes ? 'buffer' : 'utf8' })
    if (bytes) {
      const writeBytes = stream.write.bind(stream) as unknown as (data: Buffer) => boolean
      stream.write = ((line: string) => writeBytes(Buffer.from(line, 'utf8'))) as typeof stream.write
    }
    setInterval(() => stream.flush(), 1000).unref()
    return { level, stream }
  }
  // 'warn': what npm start writes with the access lines off (LOG_LEVEL=warn), for their cost.
  return loggerOptions(mode === 'warn' ? 'warn' : level, '/dev/null')
}

async function start(spec: string) {
  const storage = await mkdtemp(path.join(tmpdir(), 'bench-env-'))
  const { LOGGER, ...env } = envOf(spec)
  const app: FastifyInstance = await buildApp({ env: { STORAGE_PATH: storage, NODE_ENV: 'production', ...env }, logger: logger(LOGGER as string | undefined) })
  await app.ready()
  const login = await app.inject({ method: 'POST', url: '/api/auth/login', payload: { email: 'admin@example.com', password: 'password' } })
  const header = login.headers['set-cookie']
  const cookie = (Array.isArray(header) ? header[0]! : header!).split(';')[0]!
  const base = await app.listen({ host: '127.0.0.1', port: 0 })
  return { app, base, cookie, storage }
}

const apps = { A: await start(a), B: await start(b) }
const perRequest: Record<'A' | 'B', number[]> = { A: [], B: [] }
async function measure(name: 'A' | 'B') {
  const { base, cookie } = apps[name]
  const before = process.cpuUsage()
  const result = await runProbe({ url: base + url, rate: Number(rate), duration: Number(seconds), connections: 10, headers: { cookie } })
  const used = process.cpuUsage(before)
  perRequest[name].push((used.user + used.system) / result.total)
}

try {
  console.log(`load average before: ${loadavg().map((l) => l.toFixed(2)).join(' ')}`)
  for (const name of ['A', 'B'] as const) await runLoad({ url: apps[name].base + url, connections: 50, duration: 3, headers: { cookie: apps[name].cookie } })
  for (let round = 0; round < Number(rounds); round++) {
    await measure('A'); await measure('B'); await measure('B'); await measure('A')
  }
  for (const name of ['A', 'B'] as const) console.log(`${name} (${name === 'A' ? a : b}): ${median(perRequest[name]).toFixed(1)} µs CPU/req, median of [${perRequest[name].map((v) => v.toFixed(1)).join(', ')}]`)
  console.log(`B - A: ${(median(perRequest.B) - median(perRequest.A)).toFixed(1)} µs/req; load average after: ${loadavg().map((l) => l.toFixed(2)).join(' ')}`)
} finally {
  for (const { app, storage } of Object.values(apps)) {
    await app.close()
    await rm(storage, { recursive: true, force: true })
  }
}
