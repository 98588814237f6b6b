import type { FastifyInstance } from 'fastify'
import { metricsAccess, type MetricsAccessOptions } from './metrics-access.ts'
import { registerMetricsRoute } from './metrics-route.ts'
import { NO_METRICS, type Metrics } from './metrics.ts'
import { createPrometheusMetrics, type PrometheusMetrics } from './prometheus-metrics.ts'
import { registerProbes } from './probes.ts'
import { Readiness } from './readiness.ts'

export interface ObservabilityOptions {
  /** METRICS=on: GET /metrics, for the token or the allow-list. Off (absent or false): no metrics at all. */
  metrics?: MetricsAccessOptions | false
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Where the host and plugins register what they measure (no-ops when metrics are off). */
    metrics: Metrics
    /** The checks behind /readyz, and the "shutting down" flag. */
    readiness: Readiness
  }
}

/**
 * The metrics of an app, made before the Fastify instance: the access log's requestCompleted
 * records each request into them, so they must exist when Fastify is built. Undefined when off.
 */
export async function prepareMetrics(options: ObservabilityOptions, log: (name: string, error: unknown) => void): Promise<{ prometheus: PrometheusMetrics; authorize: ReturnType<typeof metricsAccess> } | undefined> {
  if (!options.metrics) return undefined
  // Checked before prom-client loads: a misconfiguration stops the boot at once.
  const authorize = metricsAccess(options.metrics)
  return { prometheus: await createPrometheusMetrics(log), authorize }
}

/** The probes and, when on, /metrics; `app.metrics` and `app.readiness` for the rest of the app. */
export function registerObservability(app: FastifyInstance, prepared: Awaited<ReturnType<typeof prepareMetrics>>): void {
  const readiness = new Readiness()
  app.decorate('readiness', readiness)
  app.decorate('metrics', prepared?.prometheus.metrics ?? NO_METRICS)
  registerProbes(app, readiness)
  if (prepared) registerMetricsRoute(app, prepared.prometheus.registry, prepared.authorize)
}
