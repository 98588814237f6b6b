// The HTTP load generator, in a process of its own: autocannon and the server under test must
// not share one event loop (autocannon alone can keep a core busy). Plain JavaScript, so the
// process starts without the TypeScript loader. Receives one job, answers with a summary.
import autocannon from 'autocannon'

function eachConnectionAs(connectionsAs, headers) {
  let next = 0
  return (client) => {
    const as = connectionsAs[next++ % connectionsAs.length]
    client.setRequests(as.paths.map((path) => ({ method: 'GET', path, headers: { ...headers, ...as.headers } })))
  }
}

process.once('message', async (job) => {
  try {
    const result = await autocannon({
      url: job.url,
      connections: job.connections,
      duration: job.duration,
      headers: job.headers ?? {},
      // A sequence each connection sends in turn (a page and the API call that fills it).
      ...(job.paths ? { requests: job.paths.map((path) => ({ method: 'GET', path })) } : {}),
      // Requests of their own for each connection: autocannon's clients otherwise share one list.
      ...(job.connectionsAs ? { setupClient: eachConnectionAs(job.connectionsAs, job.headers ?? {}) } : {}),
    })
    process.send({
      ok: true,
      requestsPerSecond: result.requests.average,
      total: result.requests.total,
      latency: { p50: result.latency.p50, p90: result.latency.p90, p99: result.latency.p99, max: result.latency.max, mean: result.latency.average },
      bytesPerRequest: result.requests.total ? result.throughput.total / result.requests.total : 0,
      non2xx: result.non2xx,
      errors: result.errors,
      timeouts: result.timeouts,
    }, () => process.exit(0))
  } catch (error) {
    process.send({ ok: false, message: String(error?.stack ?? error) }, () => process.exit(1))
  }
})
