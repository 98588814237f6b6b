import type { Registry } from 'prom-client'
import { HttpMetrics } from './http-metrics.ts'
import type { Metrics } from './metrics.ts'

export interface PrometheusMetrics {
  readonly metrics: Metrics
  readonly registry: Registry
  readonly http: HttpMetrics
}

/**
 * The Metrics of an instance with METRICS on, in a registry of its own (not prom-client's global
 * one: two apps in one process, as in the tests, keep theirs apart). prom-client is loaded here,
 * on demand: an instance with metrics off never loads it. Its default metrics give the event-loop
 * lag (nodejs_eventloop_lag_*), the process's memory and CPU (process_*, nodejs_heap_*) and GC.
 */
export async function createPrometheusMetrics(onCollectError: (name: string, error: unknown) => void = () => {}): Promise<PrometheusMetrics> {
  const client = await import('prom-client')
  const registry = new client.Registry()
  client.collectDefaultMetrics({ register: registry })
  const http = new HttpMetrics()
  for (const metric of http.asPromClientMetrics()) registry.registerMetric(metric as never)

  const metrics: Metrics = {
    enabled: true,
    counter: (options) => {
      const counter = new client.Counter<string>({ name: options.name, help: options.help, labelNames: [...(options.labelNames ?? [])], registers: [registry] })
      return { inc: (labels, value) => (labels ? counter.inc(labels as Record<string, string>, value ?? 1) : counter.inc(value ?? 1)) }
    },
    histogram: (options) => {
      const histogram = new client.Histogram<string>({ name: options.name, help: options.help, labelNames: [...(options.labelNames ?? [])], buckets: [...options.buckets], registers: [registry] })
      return { observe: (labels, value) => histogram.observe(labels as Record<string, string>, value) }
    },
    gauge: (options) => {
      // eslint-disable-next-line no-new
      new client.Gauge<string>({
        name: options.name, help: options.help, labelNames: [...(options.labelNames ?? [])], registers: [registry],
        async collect() {
          let samples
          try {
            samples = await options.collect()
          } catch (error) {
            onCollectError(options.name, error)
            samples = []
          }
          this.reset()
          for (const sample of samples) {
            if (sample.labels) this.set(sample.labels as Record<string, string>, sample.value)
            else this.set(sample.value)
          }
        },
      })
    },
  }
  return { metrics, registry, http }
}
