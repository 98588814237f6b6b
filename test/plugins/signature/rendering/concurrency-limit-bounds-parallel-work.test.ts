import t from 'tap'
import { ConcurrencyLimit } from '../../../../plugins/signature/rendering/concurrency-limit.ts'

t.test('never more than `limit` tasks at once; all of them run; failures free their place', async (t) => {
  const limit = new ConcurrencyLimit(3)
  let running = 0
  let peak = 0
  const task = (i: number) => limit.run(async () => {
    running++
    peak = Math.max(peak, running)
    await new Promise((resolve) => setTimeout(resolve, 5 + (i % 4)))
    running--
    if (i % 5 === 0) throw new Error(`task ${i} failed`)
    return i
  })
  const results = await Promise.allSettled(Array.from({ length: 20 }, (_, i) => task(i)))
  t.equal(peak, 3, 'the bound is reached and never passed')
  t.equal(results.filter((r) => r.status === 'fulfilled').length, 16)
  t.equal(limit.running, 0)
  t.equal(limit.waiting, 0)
})

t.test('a limit must be a positive integer', async (t) => {
  for (const bad of [0, -1, 1.5, Number.NaN]) t.throws(() => new ConcurrencyLimit(bad))
})
