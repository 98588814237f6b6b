// Starts what `npm start` runs (host-app/server.ts compiled to dist/) in a process of its own, for rows that must
// see the deployed process: its RSS and its CPU time as the kernel counts them (every thread:
// the event loop, the log transport, workers).
import { spawn, type ChildProcess } from 'node:child_process'
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { START_ENTRY, startScriptNodeArgs } from '../../bin/start-script-node-args.ts'

export { startScriptNodeArgs }

const ROOT = fileURLToPath(new URL('../..', import.meta.url))

/**
 * npm start's prestart compile of a checkout, in a process of its own as npm runs it. Not in the
 * caller's: after an in-process compile, the servers measured in that process filled V8's old
 * generation at about 8 MB/s and paid a full collection every 1.4 s, ~25 ms each, whichever side
 * was running (--trace-gc with bench/tools/perf-at-rate.ts: bare Fastify 37 µs per request at
 * 2,000 req/s, 24 µs without the compile; most likely V8's pretenuring, taught by the compile's
 * long-lived allocations).
 */
function compileIn(tree: string): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    spawn(process.execPath, ['--import', 'tsx', 'bin/compile-for-start.ts'], { cwd: tree, stdio: ['ignore', 'ignore', 'inherit'] })
      .once('error', reject).once('exit', (code) => (code === 0 ? resolve() : reject(new Error(`the compile of ${tree} exited with ${code}`))))
  })
}

let compiled: Promise<void> | undefined
/** npm start's prestart compile, once per process: the rows measure the JavaScript npm start runs. */
export function compileOnce(): Promise<void> {
  compiled ??= compileIn(ROOT)
  return compiled
}

/**
 * What npm start runs in a checkout (`tree`): its start script's node options and entry, after its
 * prestart compile. A tree from before the compile (its start script names host-app/server.ts and
 * carries `--import tsx`) runs as its start script says.
 */
export async function npmStartCommand(tree: string): Promise<string[]> {
  const start: string = JSON.parse(await readFile(path.join(tree, 'package.json'), 'utf8')).scripts.start
  const words = start.trim().split(/\s+/).slice(1)
  if (!words.at(-1)!.endsWith('.ts')) await compileIn(tree)
  return [...words.slice(0, -1), path.join(tree, words.at(-1)!)]
}

const TICKS_PER_SECOND = 100 // USER_HZ on Linux

export interface StartedServer {
  base: string
  child: ChildProcess
  /** Signs a demo account in (the demo admin unless told), all sharing the demo password; the Cookie header value. */
  login(email?: string): Promise<string>
  rss(): Promise<number>
  /** User + system CPU time of the whole process so far, µs. */
  cpuMicros(): Promise<number>
  stop(): Promise<void>
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/** Resident set size of a process, bytes (VmRSS of /proc/<pid>/status). */
export async function processRss(pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8')
  return Number(/VmRSS:\s+(\d+) kB/.exec(status)![1]) * 1024
}

/** User + system CPU time of a process so far (every thread), µs; 0 once it has gone. */
export async function processCpuMicros(pid: number): Promise<number> {
  // Fields 14 and 15 of /proc/<pid>/stat (after the parenthesised name): utime, stime in ticks.
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => undefined)
  if (stat === undefined) return 0
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
  return ((Number(fields[11]) + Number(fields[12])) * 1_000_000) / TICKS_PER_SECOND
}

/**
 * CPU time of every thread of a process so far, µs, from /proc/<pid>/task/<tid>/schedstat (its first
 * field is nanoseconds on CPU): /proc/<pid>/stat counts in 10 ms ticks, about 1 µs per request at
 * the volumes of a fixed-rate row, as much as some figures measured.
 */
export async function threadsCpuMicros(pid: number): Promise<number> {
  let nanos = 0
  for (const task of await readdir(`/proc/${pid}/task`)) {
    const stat = await readFile(`/proc/${pid}/task/${task}/schedstat`, 'utf8').catch(() => '0')
    nanos += Number(stat.split(' ')[0])
  }
  return nanos / 1000
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number }
      server.close(() => resolve(port))
    }).on('error', reject)
  })
}

/** `nodeArgs`: the node options, by default those of the start script (a tool comparing flags passes its own). */
export async function startServer(nodeArgs?: string[], env: Record<string, string> = {}): Promise<StartedServer> {
  const args = nodeArgs ?? await startScriptNodeArgs()
  await compileOnce()
  const storage = await mkdtemp(path.join(tmpdir(), 'bench-server-'))
  const port = await freePort()
  const base = `http://127.0.0.1:${port}`
  const child = spawn(process.execPath, [...args, path.join(ROOT, START_ENTRY)], {
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', STORAGE_PATH: storage, NODE_ENV: 'production', LOG_LEVEL: process.env.LOG_LEVEL ?? 'info', ...env },
    stdio: ['ignore', 'ignore', 'inherit'],
  })
  const exited = new Promise((resolve) => child.once('exit', resolve))
  const deadline = Date.now() + 60_000
  for (;;) {
    try {
      if ((await fetch(`${base}/login`)).ok) break
    } catch {}
    if (Date.now() > deadline || child.exitCode !== null) throw new Error('the server did not answer within 60 s')
    await sleep(100)
  }
  return {
    base,
    child,
    async login(email = 'admin@example.com') {
      const response = await fetch(`${base}/api/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email, password: 'password' }) })
      if (!response.ok) throw new Error(`login of ${email}: ${response.status}`)
      return response.headers.getSetCookie()[0]!.split(';')[0]!
    },
    rss: () => processRss(child.pid!),
    cpuMicros: () => processCpuMicros(child.pid!),
    async stop() {
      child.kill('SIGTERM')
      await exited
      await rm(storage, { recursive: true, force: true })
    },
  }
}
