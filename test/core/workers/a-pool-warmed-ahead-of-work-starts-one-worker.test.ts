// A caller that knows work is coming (the designer page, before the browser asks for page images)
// starts a worker ahead of it: the thread and its module come up while other things happen, and
// the task that follows finds it ready.
import t from 'tap'
import { WorkerPool } from '../../../core/workers/worker-pool.ts'

const module = new URL('../../fixtures/echo-worker.ts', import.meta.url)

async function until(check: () => boolean, what: string, ms = 20_000): Promise<void> {
  const deadline = Date.now() + ms
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`not within ${ms} ms: ${what}`)
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
}

t.test('warm() prepares the shared data once, starts one worker, and the next task runs on it', async (t) => {
  let prepared = 0
  const pool = new WorkerPool({ module, size: 2, prepareShared: async () => { prepared++; return { label: 'shared' } } })
  t.teardown(() => pool.close())
  pool.warm()
  pool.warm()
  await until(() => pool.stats.workers === 1, 'a worker started')
  pool.warm()
  t.equal(pool.stats.workers, 1, 'one worker, however often warmed')
  const warmed = await pool.run<number>('thread', {})
  t.equal(await pool.run<number>('thread', {}), warmed, 'tasks run on the warmed worker')
  t.match(await pool.run('shared', {}), { label: 'shared' }, 'which was given the shared data')
  t.equal(prepared, 1)
  t.equal(pool.stats.workers, 1)
})

t.test('a warmed worker nobody uses retires after the idle time; a closed pool warms nothing', async (t) => {
  const pool = new WorkerPool({ module, size: 1, idleTimeoutMs: 100 })
  pool.warm()
  t.equal(pool.stats.workers, 1, 'without shared data the worker starts at once')
  await until(() => pool.stats.workers === 0, 'the idle worker retired')
  await pool.close()
  pool.warm()
  t.equal(pool.stats.workers, 0)
})

t.test('a failure to prepare is left to the next task, which tries again', async (t) => {
  let calls = 0
  const pool = new WorkerPool({ module, size: 1, prepareShared: async () => { if (++calls === 1) throw new Error('not yet'); return {} } })
  t.teardown(() => pool.close())
  pool.warm()
  await until(() => calls === 1, 'prepared once')
  await new Promise((resolve) => setTimeout(resolve, 50))
  t.equal(pool.stats.workers, 0, 'no worker after a failed preparation')
  t.equal(await pool.run('echo', 7), 7)
  t.equal(calls, 2)
})
