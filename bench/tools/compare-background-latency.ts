// Row 7's situation under two sets of node options, alternating A-B per round: the app answers
// GET /api/users at a steady rate while both worker pools are kept busy (2 page renders at
// 144 DPI and 2 certified signatures of a 100-page PDF in flight), each side in a fresh process:
//   node --import tsx bench/tools/compare-background-latency.ts "--max-semi-space-size=4" "--max-semi-space-size=4 --single-threaded-gc" [rounds] [seconds]
// Per run: the probe's p99 and its own lateness, how late the event loop ran a 2 ms timer, the
// main thread's young-generation collections (count, total, longest) and the background work done.
import { execFile } from 'node:child_process'
import { mkdtemp, rm } from 'node:fs/promises'
import { loadavg, tmpdir } from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { monitorEventLoopDelay, PerformanceObserver } from 'node:perf_hooks'
import { promisify } from 'node:util'
import { median } from '../lib/rows.ts'

interface RunResult { p99: number; probeLateP99: number; loopLateP99: number; scavenges: number; scavengeMs: number; longestScavengeMs: number; renders: number; signatures: number }

const SELF = fileURLToPath(import.meta.url)

async function child(seconds: number): Promise<RunResult> {
  const { buildApp } = await import('../../host-app/app.ts')
  const { loggerOptions } = await import('../../core/http/access-log.ts')
  const { runProbe } = await import('../lib/load.ts')
  const { startBackgroundWork } = await import('../lib/background-work.ts')
  const storage = await mkdtemp(path.join(tmpdir(), 'bench-background-'))
  const app = await buildApp({ env: { STORAGE_PATH: storage, NODE_ENV: 'production' }, logger: loggerOptions('info', '/dev/null') })
  await app.ready()
  const login = await app.inject({ method: 'POST', url: '/api/auth/login', payload: { email: 'admin@example.com', password: 'password' } })
  const setCookie = login.headers['set-cookie']
  const cookie = (Array.isArray(setCookie) ? setCookie[0]! : setCookie!).split(';')[0]!
  const base = await app.listen({ host: '127.0.0.1', port: 0 })
  const background = await startBackgroundWork(storage)
  const { done } = background
  const scavenges: number[] = []
  const observer = new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) if ((entry as { detail?: { kind?: number } }).detail?.kind === 1) scavenges.push(entry.duration)
  })
  observer.observe({ entryTypes: ['gc'] })
  const loop = monitorEventLoopDelay({ resolution: 2 })
  loop.enable()
  const before = { ...done }
  const probe = await runProbe({ url: `${base}/api/users?perPage=10`, connections: 10, duration: seconds, rate: 500, headers: { cookie } })
  loop.disable()
  observer.disconnect()
  await background.stop()
  await app.close()
  await rm(storage, { recursive: true, force: true })
  return {
    p99: probe.latency.p99, probeLateP99: probe.clientLateness.p99, loopLateP99: Math.max(0, loop.percentile(99) / 1e6 - 2),
    scavenges: scavenges.length, scavengeMs: scavenges.reduce((sum, ms) => sum + ms, 0), longestScavengeMs: Math.max(0, ...scavenges),
    renders: done.renders - before.renders, signatures: done.signatures - before.signatures,
  }
}

async function parent(): Promise<void> {
  const [a = '--max-semi-space-size=4', b = '--max-semi-space-size=4 --single-threaded-gc', rounds = '3', seconds = '5'] = process.argv.slice(2)
  const runs: Record<'A' | 'B', RunResult[]> = { A: [], B: [] }
  const runOnce = async (flags: string): Promise<RunResult> => {
    const { stdout } = await promisify(execFile)(process.execPath, [...flags.split(' ').filter(Boolean), '--import', 'tsx', SELF], { env: { ...process.env, BACKGROUND_LATENCY_CHILD: seconds }, maxBuffer: 1 << 20 })
    return JSON.parse(stdout.trim().split('\n').at(-1)!) as RunResult
  }
  console.log(`load average before: ${loadavg().map((l) => l.toFixed(2)).join(' ')}`)
  for (let round = 0; round < Number(rounds); round++) {
    for (const name of (round % 2 ? ['B', 'A'] : ['A', 'B']) as Array<'A' | 'B'>) runs[name].push(await runOnce(name === 'A' ? a : b))
  }
  const list = (values: number[]) => values.map((v) => v.toFixed(1)).join(' / ')
  for (const name of ['A', 'B'] as const) {
    const r = runs[name]
    console.log(`${name} (${name === 'A' ? a : b}):`)
    console.log(`  /api/users p99 ms ${list(r.map((x) => x.p99))} (median ${median(r.map((x) => x.p99)).toFixed(1)}); probe late p99 ${list(r.map((x) => x.probeLateP99))}; loop late p99 ${list(r.map((x) => x.loopLateP99))}`)
    console.log(`  main-thread scavenges: ${list(r.map((x) => x.scavenges))}, total ms ${list(r.map((x) => x.scavengeMs))}, longest ms ${list(r.map((x) => x.longestScavengeMs))}`)
    console.log(`  background done: renders ${r.map((x) => x.renders).join(' / ')}, signatures ${r.map((x) => x.signatures).join(' / ')}`)
  }
  console.log(`load average after: ${loadavg().map((l) => l.toFixed(2)).join(' ')}`)
}

if (process.env.BACKGROUND_LATENCY_CHILD) process.stdout.write(`\n${JSON.stringify(await child(Number(process.env.BACKGROUND_LATENCY_CHILD)))}\n`)
else await parent()
