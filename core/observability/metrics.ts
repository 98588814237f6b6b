/**
 * What the host and plugins record, without knowing whether metrics are on or which library
 * exposes them: core/observability/prometheus-metrics.ts backs it with prom-client when METRICS is
 * on; otherwise NO_METRICS answers every call with a no-op, so an instance without metrics loads no
 * library and pays a function call at most. Label values must come from bounded sets (a route
 * pattern, a task name, a verdict), never from an id or a URL.
 */
export type Labels<L extends string> = Partial<Record<L, string>>

export interface CounterMetric<L extends string = string> {
  inc(labels?: Labels<L>, value?: number): void
}

export interface HistogramMetric<L extends string = string> {
  observe(labels: Labels<L>, value: number): void
}

export interface Sample<L extends string = string> {
  labels?: Labels<L>
  value: number
}

export interface MetricOptions<L extends string> {
  /** snake_case with the unit last (`_seconds`, `_bytes`); counters end in `_total`. */
  name: string
  help: string
  labelNames?: readonly L[]
}

export interface Metrics {
  readonly enabled: boolean
  counter<L extends string = never>(options: MetricOptions<L>): CounterMetric<L>
  histogram<L extends string = never>(options: MetricOptions<L> & { buckets: readonly number[] }): HistogramMetric<L>
  /**
   * A value read when the metrics are scraped: `collect` answers the current samples. One that
   * throws reports no sample for that scrape (the others still do).
   */
  gauge<L extends string = never>(options: MetricOptions<L> & { collect(): readonly Sample<L>[] | Promise<readonly Sample<L>[]> }): void
}

const noCounter: CounterMetric<never> = { inc() {} }
const noHistogram: HistogramMetric<never> = { observe() {} }

export const NO_METRICS: Metrics = {
  enabled: false,
  counter: () => noCounter,
  histogram: () => noHistogram,
  gauge() {},
}
