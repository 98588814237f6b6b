import { performance } from 'node:perf_hooks'
import { median } from './rows.ts'

/** Median wall time of `fn` over `runs` calls, after a few warm-up calls (JIT, lazy imports, page reuse). */
export async function medianTime(runs: number, fn: () => Promise<unknown> | unknown, warmups = 3): Promise<number> {
  for (let i = 0; i < warmups; i++) await fn()
  const times: number[] = []
  for (let i = 0; i < runs; i++) {
    const start = performance.now()
    await fn()
    times.push(performance.now() - start)
  }
  return median(times)
}
