import t from 'tap'
import { WorkerPool } from '../../../core/workers/worker-pool.ts'

const module = new URL('../../fixtures/echo-worker.ts', import.meta.url)

t.test('runs tasks in workers and keeps the event loop free', async (t) => {
  const pool = new WorkerPool({ module, size: 1 })
  t.teardown(() => pool.close())
  t.same(await pool.run('echo', { a: [1, 2] }), { a: [1, 2] })
  // While a worker spins for 300 ms, timers on the main thread still fire on time.
  const spin = pool.run<number>('spin', { ms: 300 })
  const lags: number[] = []
  let last = Date.now()
  const timer = setInterval(() => { lags.push(Date.now() - last - 10); last = Date.now() }, 10)
  await spin
  clearInterval(timer)
  t.ok(lags.length >= 10, `${lags.length} ticks during the task`)
  t.ok(Math.max(...lags) < 100, `max event-loop lag ${Math.max(...lags)} ms`)
})

t.test('errors keep their stable code; a crash fails one task and the pool recovers', async (t) => {
  const pool = new WorkerPool({ module, size: 1 })
  t.teardown(() => pool.close())
  await t.rejects(pool.run('fail', {}), { code: 'ERR_VALIDATION', statusCode: 400, message: 'bad input in the worker' })
  await t.rejects(pool.run('crash', {}), /exited/)
  t.same(await pool.run('echo', 'still here'), 'still here')
  await t.rejects(pool.run('no-such-task', {}), /unknown task/)
})

t.test('a full queue is refused with 503 instead of growing', async (t) => {
  const pool = new WorkerPool({ module, size: 1, maxQueue: 2 })
  t.teardown(() => pool.close())
  const running = pool.run('spin', { ms: 100 })
  const queued = [pool.run('echo', 1), pool.run('echo', 2)]
  await t.rejects(pool.run('echo', 3), { code: 'ERR_UNAVAILABLE', statusCode: 503 })
  t.same(await Promise.all([running, ...queued]), [100, 1, 2])
})

t.test('workers run at a lower priority than the event loop thread', async (t) => {
  const pool = new WorkerPool({ module, size: 1 })
  t.teardown(() => pool.close())
  const { getPriority } = await import('node:os')
  t.equal(await pool.run('priority', {}), 10, 'the worker thread is niced')
  t.equal(getPriority(0), 0, 'the main thread is not')
})

t.test('a pool of work nobody waits on urgently can run lower still', async (t) => {
  const pool = new WorkerPool({ module, size: 1, nice: 19 })
  t.teardown(() => pool.close())
  t.equal(await pool.run('priority', {}), 19)
})
