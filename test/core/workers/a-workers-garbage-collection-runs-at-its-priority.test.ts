import { execFile } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import t from 'tap'
import { startScriptNodeArgs } from '../../../bin/start-script-node-args.ts'

const PROBE = fileURLToPath(new URL('../../fixtures/gc-threads-probe.ts', import.meta.url))

// Workers run at nice 10 so that the event loop keeps its core (worker-bootstrap.mjs). V8 runs a
// collection's parallel parts on helper threads that every isolate of the process shares, and
// those run at the nice of whoever started them: the main thread's, 0. So a PDF worker's
// collections competed with the event loop at full priority (bench/tools/compare-background-latency.ts:
// /api/users p99 median 5.5 -> 4.5 ms while both pools work, once collections stay on each
// isolate's own thread). npm start runs with --single-threaded-gc; this checks the effect under
// its node options.
t.test('a busy worker\'s garbage collection stays on its own, lowered thread', { skip: process.platform !== 'linux' && 'reads /proc' }, async (t) => {
  const args = await startScriptNodeArgs()
  const { stdout } = await promisify(execFile)(process.execPath, [...args, PROBE, '1500'], { cwd: fileURLToPath(new URL('../../..', import.meta.url)) })
  const threads = JSON.parse(stdout) as Array<{ tid: number; main: boolean; nice: number; ticks: number }>
  const worker = threads.filter((thread) => thread.nice === 10)
  t.equal(worker.length, 1, 'one pool worker, niced')
  const workerTicks = worker[0]!.ticks
  t.ok(workerTicks >= 50, `the worker ran (${workerTicks} ticks of 10 ms)`)
  const helpers = threads.filter((thread) => !thread.main && thread.nice === 0)
  const helperTicks = helpers.reduce((sum, thread) => sum + thread.ticks, 0)
  t.ok(helperTicks <= Math.max(2, workerTicks * 0.02), `threads at normal priority other than the event loop worked ${helperTicks} ticks while the worker worked ${workerTicks}`)
})
