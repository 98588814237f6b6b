// A worker left idle past idleTimeoutMs is terminated (its memory goes with its thread) and the
// next task starts a new one; a busy worker is never retired, however long its task.
import t from 'tap'
import { WorkerPool } from '../../../core/workers/worker-pool.ts'

const module = new URL('../../fixtures/echo-worker.ts', import.meta.url)
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

async function until(check: () => boolean, ms = 5_000): Promise<boolean> {
  const deadline = Date.now() + ms
  while (!check() && Date.now() < deadline) await sleep(20)
  return check()
}

t.test('an idle worker is retired and the next task starts another', async (t) => {
  const pool = new WorkerPool({ module, size: 1, idleTimeoutMs: 200 })
  t.teardown(() => pool.close())
  const first = await pool.run<number>('thread', {})
  t.equal(pool.stats.workers, 1)
  t.ok(await until(() => pool.stats.workers === 0), 'retired after its idle time')
  t.not(await pool.run('thread', {}), first, 'a new worker answers')
  t.equal(pool.stats.workers, 1)
})

t.test('a task longer than the idle time keeps its worker; back-to-back tasks reuse it', async (t) => {
  const pool = new WorkerPool({ module, size: 1, idleTimeoutMs: 150 })
  t.teardown(() => pool.close())
  const first = await pool.run<number>('thread', {})
  t.equal(await pool.run('spin', { ms: 400 }), 400)
  for (let i = 0; i < 5; i++) {
    await sleep(60)
    t.same(await pool.run('echo', i), i)
  }
  t.equal(await pool.run('thread', {}), first, 'the same thread all along')
})

t.test('without idleTimeoutMs workers stay until close', async (t) => {
  const pool = new WorkerPool({ module, size: 1 })
  t.teardown(() => pool.close())
  await pool.run('echo', 1)
  await sleep(400)
  t.equal(pool.stats.workers, 1)
})
