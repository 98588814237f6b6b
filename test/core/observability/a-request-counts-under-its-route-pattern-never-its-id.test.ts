// The request metrics are labelled by route pattern (request.routeOptions.url) and status class:
// an id in the URL, or a URL no route matches, never becomes a label value, so the number of
// series stays bounded whatever clients ask for.
import t from 'tap'
import { buildTestApp, DEMO, login } from '../../helpers/app.ts'
import { METRICS_TOKEN, scrape, valueOf } from '../../helpers/prometheus-text.ts'

t.test('a request increments its route pattern\'s counter; ids stay out of the labels', async (t) => {
  const app = await buildTestApp(t, { env: { METRICS: 'on', METRICS_TOKEN } })
  const cookie = await login(app, DEMO.admin.email)
  const series = { name: 'http_requests_total', labels: { method: 'GET', route: '/api/users/:id', status_class: '2xx' } }
  const before = valueOf(await scrape(app), series.name, series.labels)

  for (const id of [DEMO.staff.id, DEMO.manager.id, DEMO.staff.id]) {
    t.equal((await app.inject({ url: `/api/users/${id}?secret-query=1`, headers: { cookie } })).statusCode, 200)
  }
  t.equal((await app.inject({ url: '/api/users/u-nobody-at-all', headers: { cookie } })).statusCode, 404)
  for (const path of ['/no-such-page/1234567', '/no-such-page/7654321']) t.equal((await app.inject({ url: path })).statusCode, 404)

  const after = await scrape(app)
  t.equal(valueOf(after, series.name, series.labels) - before, 3, 'three 2xx answers of GET /api/users/:id')
  t.equal(valueOf(after, series.name, { ...series.labels, status_class: '4xx' }), 1, 'the 404 of the same route is its own class')
  t.equal(valueOf(after, 'http_request_duration_seconds_count', series.labels) - before, 3, 'and three latencies')
  t.equal(valueOf(after, series.name, { method: 'GET', route: '(unmatched)', status_class: '4xx' }), 2, 'URLs no route matches share one series')

  const values = after.samples.flatMap((s) => Object.values(s.labels))
  for (const leaked of [DEMO.staff.id, DEMO.manager.id, 'u-nobody-at-all', '1234567', 'secret-query', '/no-such-page']) {
    t.notOk(values.some((v) => v.includes(leaked)), `${leaked} is in no label`)
  }
})
