import t from 'tap'
import { WorkerPool } from '../../../core/workers/worker-pool.ts'

const module = new URL('../../fixtures/echo-worker.ts', import.meta.url)

t.test('a task past the time limit fails with ERR_TASK_LIMIT; its worker is replaced and the pool goes on', async (t) => {
  // Limits with headroom: workers run at a lower priority (worker-bootstrap.mjs), so on a busy
  // machine a fresh worker's first small task waited past a 200-300 ms limit (CI, two files at once).
  const pool = new WorkerPool({ module, size: 1, taskTimeoutMs: 3_000 })
  t.teardown(() => pool.close())
  t.same(await pool.run('echo', 'warm'), 'warm')
  const started = Date.now()
  // Spins for 60 s unless stopped: only terminating the thread stops synchronous work.
  await t.rejects(pool.run('spin', { ms: 60_000 }), { code: 'ERR_TASK_LIMIT', statusCode: 422 })
  t.ok(Date.now() - started < 30_000, `stopped after ${Date.now() - started} ms, long before the task's 60 s`)
  t.same(await pool.run('echo', 'after'), 'after', 'a fresh worker answers')
  t.equal(pool.stats.workers, 1, 'the pool keeps its size')
})

t.test('a worker out of heap fails its task with ERR_TASK_LIMIT and is replaced', async (t) => {
  const pool = new WorkerPool({ module, size: 1, resourceLimits: { maxOldGenerationSizeMb: 48, maxYoungGenerationSizeMb: 8 }, limitError: (kind) => Object.assign(new Error(`limit: ${kind}`), { code: 'ERR_CUSTOM', kind }) })
  t.teardown(() => pool.close())
  await t.rejects(pool.run('hog', {}), { code: 'ERR_CUSTOM', kind: 'memory' })
  t.same(await pool.run('echo', 'after'), 'after')
})

t.test('a limit error can be the caller\'s own; settings reach the worker', async (t) => {
  const pool = new WorkerPool({ module, size: 1, taskTimeoutMs: 3_000, workerOptions: { maxDecodedBytes: 123 }, limitError: (kind) => Object.assign(new Error(kind), { code: 'ERR_MINE' }) })
  t.teardown(() => pool.close())
  t.same(await pool.run('settings', {}), { maxDecodedBytes: 123 })
  await t.rejects(pool.run('spin', { ms: 60_000 }), { code: 'ERR_MINE', message: 'time' })
  t.same(await pool.run('echo', 1), 1)
})
