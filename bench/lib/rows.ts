// One row of the benchmark table: a figure, the baseline measured in the same run, their ratio
// and the bar from issue 9. `met` is null where a row has no bar of its own (context rows).
export interface Row {
  id: string
  what: string
  ours: string
  baseline: string
  ratio: string
  bar: string
  met: boolean | null
  /** Raw numbers for the JSON file. */
  data?: Record<string, unknown>
}

export const QUICK = process.env.BENCH_QUICK === '1'

/** Full value, or the shortened one under BENCH_QUICK=1 (a smoke run of the whole harness). */
export const pick = <T>(full: T, quick: T): T => (QUICK ? quick : full)

export function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b)
  if (sorted.length === 0) return NaN
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!
}

export const median = (values: number[]) => percentile(values, 50)

export const ms = (value: number) => `${value < 10 ? value.toFixed(2) : value.toFixed(1)} ms`
export const x = (value: number) => `${value.toFixed(2)}x`
export const mib = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MiB`
export const rps = (value: number) => `${Math.round(value).toLocaleString('en-US')} req/s`
