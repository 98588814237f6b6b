// An open-loop latency probe, in a process of its own like load-generator.mjs. Requests leave on
// a fixed schedule, one every 1/rate s, whether or not earlier ones have answered; undici's pool
// queues any that find every connection busy, and that wait counts in their latency.
//
// Why not autocannon's overallRate: each of its connections sends its whole quota for the second
// back to back when the second starts and then waits, so "500 req/s" is a burst of 500 at full
// speed once a second, and its coordinated-omission correction (expected interval ceil(1/rate)
// = 1 ms) adds a synthetic sample for every millisecond a response took. Its p99 at a fixed rate
// measured those bursts (about 9 ms on an idle server whose event loop was never 2 ms late).
import { performance } from 'node:perf_hooks'
import { Pool } from 'undici'

// Plain JavaScript, so the process starts without the TypeScript loader; hence its own percentile.
const percentile = (sorted, p) => (sorted.length ? sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] : 0)

process.once('message', async (job) => {
  const url = new URL(job.url)
  const pool = new Pool(url.origin, { connections: job.connections, pipelining: 1 })
  const headers = job.headers ?? {}
  const total = Math.max(1, Math.round(job.rate * job.duration))
  const interval = 1000 / job.rate
  /** From handing the request to the pool to the last byte of the body, ms. */
  const latencies = new Float64Array(total)
  /** How late this process sent each request against the schedule (its own timer slop), ms. */
  const lateness = new Float64Array(total)
  let sent = 0
  let finished = 0
  let non2xx = 0
  let errors = 0
  let bytes = 0
  const start = performance.now() + 20

  await new Promise((resolve) => {
    const fire = (index, now) => {
      lateness[index] = now - (start + index * interval)
      pool.request({ method: 'GET', path: url.pathname + url.search, headers })
        .then(async (response) => {
          const body = await response.body.arrayBuffer()
          bytes += body.byteLength
          if (response.statusCode < 200 || response.statusCode >= 300) non2xx++
        }, () => { errors++ })
        .finally(() => {
          latencies[index] = performance.now() - now
          if (++finished === total) resolve()
        })
    }
    const tick = () => {
      const now = performance.now()
      while (sent < total && start + sent * interval <= now) fire(sent++, now)
      if (sent < total) setTimeout(tick, Math.max(0, start + sent * interval - performance.now()))
    }
    setTimeout(tick, 20)
  })
  const elapsed = (performance.now() - start) / 1000
  await pool.close()

  const sorted = Float64Array.from(latencies).sort()
  const late = Float64Array.from(lateness).sort()
  const mean = sorted.reduce((sum, value) => sum + value, 0) / sorted.length
  process.send({
    ok: true,
    requestsPerSecond: total / elapsed,
    total,
    latency: { p50: percentile(sorted, 50), p90: percentile(sorted, 90), p99: percentile(sorted, 99), max: sorted[sorted.length - 1], mean },
    clientLateness: { p50: percentile(late, 50), p99: percentile(late, 99), max: late[late.length - 1] },
    bytesPerRequest: bytes / total,
    non2xx,
    errors,
    timeouts: 0,
  }, () => process.exit(0))
})
