// Row 1' in one process, for trying a change: the compiled app (dist/, as npm start runs it) and
// bare Fastify serving the same JSON, each at a fixed rate in alternating rounds (A-B, B-A, ...),
// with this process's CPU per request for each round and their means:
//   node --max-semi-space-size=4 --single-threaded-gc --import tsx bench/tools/perf-at-rate.ts [rounds] [seconds] [rate]
// PERF=stat or PERF=record also runs Linux perf on this process during each round
// (bench/results/perf/<side><round>.<mode>; add --perf-basic-prof to node for JavaScript names).
// LOG_LEVEL and the app's settings (APP_ENV='{"SESSION_CACHE_ENTRIES":0}') are passed through.
import { spawn } from 'node:child_process'
import { mkdir, mkdtemp, rm } from 'node:fs/promises'
import { loadavg, tmpdir } from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import Fastify from 'fastify'
import { compileOnce } from '../lib/start-server.ts'
import { runLoad, runProbe } from '../lib/load.ts'

const [rounds = 6, seconds = 3, rate = 2000] = process.argv.slice(2).map(Number)
const perfMode = process.env.PERF
const url = '/api/users?perPage=10'

await compileOnce()
const { buildApp } = await import('../../dist/host-app/app.js' as string) as typeof import('../../host-app/app.ts')
const { loggerOptions } = await import('../../dist/core/http/access-log.js' as string) as typeof import('../../core/http/access-log.ts')
const storage = await mkdtemp(path.join(tmpdir(), 'perf-at-rate-'))
const app = await buildApp({
  env: { STORAGE_PATH: storage, NODE_ENV: 'production', ...JSON.parse(process.env.APP_ENV ?? '{}') },
  logger: loggerOptions(process.env.LOG_LEVEL ?? 'info', '/dev/null'),
})
await app.ready()
const login = await app.inject({ method: 'POST', url: '/api/auth/login', payload: { email: 'admin@example.com', password: 'password' } })
const setCookie = login.headers['set-cookie']
const cookie = (Array.isArray(setCookie) ? setCookie[0]! : setCookie!).split(';')[0]!
const body = (await app.inject({ url, headers: { cookie } })).json()
const bare = Fastify({ logger: false })
bare.get('/api/users', async () => body)
const sides = {
  bare: { base: await bare.listen({ host: '127.0.0.1', port: 0 }), headers: {} },
  ours: { base: await app.listen({ host: '127.0.0.1', port: 0 }), headers: { cookie } },
}
const perfDir = fileURLToPath(new URL('../results/perf/', import.meta.url))
if (perfMode) await mkdir(perfDir, { recursive: true })

async function round(side: keyof typeof sides, index: number): Promise<number> {
  const perf = perfMode
    ? spawn('perf', [perfMode, ...(perfMode === 'record' ? ['-F', '4999', '-g'] : []), '-p', String(process.pid), '-o', path.join(perfDir, `${side}${index}.${perfMode}`)], { stdio: 'inherit' })
    : undefined
  if (perf) await new Promise((resolve) => setTimeout(resolve, 300)) // perf attaches
  // On stderr, with the process's clock: lines of --trace-gc fall between them.
  console.error(`[${Math.round(performance.now())} ms] ${side} round ${index}`)
  const before = process.cpuUsage()
  const result = await runProbe({ url: sides[side].base + url, rate, duration: seconds, connections: 10, headers: sides[side].headers })
  const used = process.cpuUsage(before)
  if (perf) {
    perf.kill('SIGINT')
    await new Promise((resolve) => perf.once('exit', resolve))
  }
  return (used.user + used.system) / result.total
}

// JIT warm-up: at saturation, then at the rate measured.
for (const side of ['bare', 'ours'] as const) {
  await runLoad({ url: sides[side].base + url, connections: 50, duration: 2, headers: sides[side].headers })
  await runProbe({ url: sides[side].base + url, rate, duration: 1, connections: 10, headers: sides[side].headers })
}
const cpu = { bare: [] as number[], ours: [] as number[] }
for (let i = 0; i < rounds; i++) {
  const order = i % 2 === 0 ? (['bare', 'ours'] as const) : (['ours', 'bare'] as const)
  for (const side of order) cpu[side].push(await round(side, i))
}
const mean = (values: number[]) => values.reduce((sum, value) => sum + value, 0) / values.length
const list = (values: number[]) => values.map((value) => value.toFixed(1)).join(' ')
console.log(`µs CPU per request at ${rate} req/s, ${rounds} rounds of ${seconds} s; load average ${loadavg()[0]!.toFixed(2)}`)
console.log(`bare: ${list(cpu.bare)}  mean ${mean(cpu.bare).toFixed(1)}`)
console.log(`ours: ${list(cpu.ours)}  mean ${mean(cpu.ours).toFixed(1)}`)
console.log(`ours - bare: +${(mean(cpu.ours) - mean(cpu.bare)).toFixed(1)} µs; ours / bare: ${(mean(cpu.ours) / mean(cpu.bare)).toFixed(2)}x`)
await app.close()
await bare.close()
await rm(storage, { recursive: true, force: true })
