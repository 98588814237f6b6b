// GET /metrics (METRICS=on) is Prometheus's text format, read here as a scraper reads it: every
// metric the README lists for alerting is there, with its type.
import t from 'tap'
import { buildTestApp, DEMO, login } from '../../helpers/app.ts'
import { METRICS_TOKEN, parseExposition } from '../../helpers/prometheus-text.ts'

t.test('the exposition names each documented metric with its type', async (t) => {
  const app = await buildTestApp(t, { env: { METRICS: 'on', METRICS_TOKEN } })
  const cookie = await login(app, DEMO.admin.email)
  t.equal((await app.inject({ url: '/api/users', headers: { cookie } })).statusCode, 200)

  const response = await app.inject({ url: '/metrics', headers: { authorization: `Bearer ${METRICS_TOKEN}` } })
  t.equal(response.statusCode, 200)
  t.match(response.headers['content-type'], /^text\/plain; version=0\.0\.4/)
  const { types, samples } = parseExposition(response.body)
  const expected: Record<string, string> = {
    http_requests_total: 'counter',
    http_request_duration_seconds: 'histogram',
    nodejs_eventloop_lag_seconds: 'gauge',
    nodejs_eventloop_lag_p99_seconds: 'gauge',
    process_resident_memory_bytes: 'gauge',
    nodejs_heap_size_used_bytes: 'gauge',
    signature_outbox_pending: 'gauge',
    signature_outbox_oldest_pending_age_seconds: 'gauge',
    signature_outbox_sent_total: 'counter',
    signature_outbox_given_up_total: 'counter',
    signature_worker_queue_depth: 'gauge',
    signature_worker_busy: 'gauge',
    signature_worker_task_seconds: 'histogram',
    signature_signatures_total: 'counter',
    signature_sessions_completed_total: 'counter',
    signature_verifications_total: 'counter',
  }
  if (process.env.DATABASE_URL) expected.database_pool_connections = 'gauge'
  for (const [name, type] of Object.entries(expected)) t.equal(types.get(name), type, `${name} is a ${type}`)
  t.notOk(types.has('database_pool_connections') && !process.env.DATABASE_URL, 'no pool gauges on SQLite')

  for (const name of ['http_request_duration_seconds_bucket', 'http_request_duration_seconds_sum', 'http_request_duration_seconds_count']) {
    t.ok(samples.some((s) => s.name === name && s.labels.route === '/api/users'), `${name} for /api/users`)
  }
  const buckets = samples.filter((s) => s.name === 'http_request_duration_seconds_bucket' && s.labels.route === '/api/users')
  t.equal(buckets.at(-1)?.labels.le, '+Inf', 'the last bucket is +Inf')
  t.ok(buckets.every((b, i) => i === 0 || b.value >= buckets[i - 1]!.value), 'buckets are cumulative')
  for (const kind of ['mail', 'webhook']) {
    t.ok(samples.some((s) => s.name === 'signature_outbox_pending' && s.labels.kind === kind), `outbox pending for ${kind}, even at 0`)
  }
  for (const pool of ['pdf', 'rasterizer']) {
    t.ok(samples.some((s) => s.name === 'signature_worker_queue_depth' && s.labels.pool === pool), `queue depth of the ${pool} pool`)
  }
  t.ok(samples.find((s) => s.name === 'process_resident_memory_bytes')!.value > 10 * 1024 * 1024, 'the process\'s memory')
})

t.test('with METRICS off (the default) there is no /metrics and prom-client is not asked for', async (t) => {
  const app = await buildTestApp(t)
  t.equal(app.metrics.enabled, false)
  const response = await app.inject({ url: '/metrics', headers: { authorization: `Bearer ${METRICS_TOKEN}` } })
  t.equal(response.statusCode, 404)
})
