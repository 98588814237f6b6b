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
// Node 26 (V8 14) does the work on threads at normal priority whatever --single-threaded-gc says
// (2026-11-27: 87-117 ticks of them against the worker's 122-141); the flag no longer buys this
// there, so on 26 the test says so instead of asserting it. Issue 40 carries the finding.
const major = Number(process.versions.node.split('.')[0])
const skip = process.platform !== 'linux' ? 'reads /proc' : major >= 26 ? `Node ${process.versions.node}: V8 runs a worker's collection work on normal-priority helper threads whatever --single-threaded-gc says (measured, see the comment)` : false

t.test('a busy worker\'s garbage collection stays on its own, lowered thread', { skip }, async (t) => {
  // The probe is TypeScript: npm start's options plus the loader.
  const args = [...await startScriptNodeArgs(), '--import', 'tsx']
  const { stdout } = await promisify(execFile)(process.execPath, [...args, PROBE, '5000000'], { cwd: fileURLToPath(new URL('../../..', import.meta.url)) })
  const { threads } = JSON.parse(stdout) as { threads: Array<{ tid: number; main: boolean; nice: number; ticks: number }> }
  // The pool worker's thread, and any thread it started, which inherits its nice value.
  const workerTicks = threads.filter((thread) => thread.nice === 10).reduce((sum, thread) => sum + thread.ticks, 0)
  t.ok(workerTicks >= 20, `the niced worker did the work (${workerTicks} ticks of 10 ms)`)
  const helperTicks = threads.filter((thread) => !thread.main && thread.nice === 0).reduce((sum, thread) => sum + thread.ticks, 0)
  // Without the flag they did about 0.7 of the worker's own time; with it, 0-2 ticks.
  t.ok(helperTicks <= Math.max(3, workerTicks * 0.1), `threads at normal priority other than the event loop worked ${helperTicks} ticks while the worker worked ${workerTicks}`)
})
