// CPU per request of two source trees' npm start processes (each tree's start script, after its prestart compile, both
// running, each idle while the other is measured), A-B-B-A, at saturation (50 connections) or at a
// fixed 2,000 req/s ('rate'): for measuring a change against the commit before it.
//   git worktree add /tmp/base HEAD~1 && ln -s "$PWD/node_modules" /tmp/base/node_modules
//   node --import tsx bench/tools/compare-trees.ts /tmp/base . /admin/users [seconds] [rounds] [sat|rate]
// Two copies of the same tree have differed by up to 6.5 % here (placement on the two vCPUs):
// run it in both orders before believing a difference smaller than that.
import { spawn } from 'node:child_process'
import { mkdtemp } from 'node:fs/promises'
import { loadavg, tmpdir } from 'node:os'
import path from 'node:path'
import { runLoad, runProbe } from '../lib/load.ts'
import { median } from '../lib/rows.ts'
import { freePort, npmStartCommand, processCpuMicros, sleep } from '../lib/start-server.ts'

const [treeA = '/tmp/base', treeB = '/work/main', url = '/admin/users', seconds = '4', rounds = '3', mode = 'sat'] = process.argv.slice(2)
async function start(tree: string) {
  const port = await freePort(); const base = `http://127.0.0.1:${port}`
  const storage = await mkdtemp(path.join(tmpdir(), 'ab-'))
  const child = spawn(process.execPath, await npmStartCommand(tree), { cwd: tree, env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', STORAGE_PATH: storage, NODE_ENV: 'production', LOG_LEVEL: 'info' }, stdio: ['ignore', 'ignore', 'inherit'] })
  const deadline = Date.now() + 60_000
  for (;;) {
    try { if ((await fetch(`${base}/login`)).ok) break } catch {}
    if (child.exitCode !== null || Date.now() > deadline) throw new Error(`${tree}'s server did not answer (exit code ${child.exitCode})`)
    await sleep(100)
  }
  const r = await fetch(`${base}/api/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: 'admin@example.com', password: 'password' }) })
  const cookie = r.headers.getSetCookie()[0]!.split(';')[0]!
  return { base, child, cookie }
}
const servers = { A: await start(treeA), B: await start(treeB) }
const cpu: Record<'A' | 'B', number[]> = { A: [], B: [] }
const rps: Record<'A' | 'B', number[]> = { A: [], B: [] }
async function measure(n: 'A' | 'B') {
  const s = servers[n]; const before = await processCpuMicros(s.child.pid!)
  const result = mode === 'sat'
    ? await runLoad({ url: s.base + url, connections: 50, duration: Number(seconds), headers: { cookie: s.cookie } })
    : await runProbe({ url: s.base + url, rate: 2000, duration: Number(seconds), connections: 10, headers: { cookie: s.cookie } })
  cpu[n].push(((await processCpuMicros(s.child.pid!)) - before) / result.total); rps[n].push(result.total / Number(seconds))
}
console.log(`load before ${loadavg()[0]!.toFixed(2)}`)
for (const n of ['A', 'B'] as const) await runLoad({ url: servers[n].base + url, connections: 50, duration: 3, headers: { cookie: servers[n].cookie } })
for (let i = 0; i < Number(rounds); i++) { await measure('A'); await measure('B'); await measure('B'); await measure('A') }
for (const n of ['A', 'B'] as const) console.log(`${n}: ${median(cpu[n]).toFixed(1)} µs/req [${cpu[n].map((v) => v.toFixed(0)).join(' ')}], ${median(rps[n]).toFixed(0)} req/s`)
console.log(`B/A cpu ${(median(cpu.B) / median(cpu.A)).toFixed(3)}, rps ${(median(rps.B) / median(rps.A)).toFixed(3)}; load after ${loadavg()[0]!.toFixed(2)}`)
for (const s of Object.values(servers)) s.child.kill()
