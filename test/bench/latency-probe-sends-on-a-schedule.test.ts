// The probe behind the fixed-rate bench rows must be open-loop: requests leave on a steady
// schedule whether or not earlier ones have answered, never in once-a-second bursts.
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { monitorEventLoopDelay, performance } from 'node:perf_hooks'
import t, { type Test } from 'tap'
import { runProbe } from '../../bench/lib/load.ts'

const ANSWER_MS = 100

async function slowServer(t: Test) {
  const arrivals: number[] = []
  const server = createServer((request, response) => {
    arrivals.push(performance.now())
    setTimeout(() => {
      response.writeHead(request.url === '/missing' ? 404 : 200, { 'content-type': 'text/plain' })
      response.end('ok')
    }, ANSWER_MS)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  t.teardown(() => new Promise<void>((resolve) => server.close(() => resolve())))
  return { base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, arrivals }
}

/** More than this late, a process was not given a core: the run says nothing about the probe. */
const STALL_MS = 50

t.test('50 req/s for 1 s against answers that take 100 ms: evenly spaced, each timed', async (t) => {
  // The suite runs two files at once on two cores, and either process here (this one answers, the
  // probe sends) can be kept off a core for hundreds of ms: gaps and latencies then measure the
  // machine. A run during which this event loop or the probe's timer was over STALL_MS late is
  // played again, up to four times in all; the last run is judged whatever happened.
  let run!: { result: Awaited<ReturnType<typeof runProbe>>; arrivals: number[] }
  for (let attempt = 1; attempt <= 4; attempt++) {
    const { base, arrivals } = await slowServer(t)
    const loop = monitorEventLoopDelay({ resolution: 10 })
    loop.enable()
    const result = await runProbe({ url: `${base}/ok`, rate: 50, duration: 1, connections: 10 })
    loop.disable()
    run = { result, arrivals }
    const serverLate = loop.max / 1e6 - 10
    if (serverLate <= STALL_MS && result.clientLateness.max <= STALL_MS) break
    t.comment(`attempt ${attempt}: stalled (this loop ${serverLate.toFixed(0)} ms late, the probe ${result.clientLateness.max.toFixed(0)} ms); again`)
  }
  const { result, arrivals } = run
  t.equal(result.total, 50)
  t.equal(arrivals.length, 50)
  const span = arrivals.at(-1)! - arrivals[0]!
  const gaps = arrivals.slice(1).map((at, i) => at - arrivals[i]!)
  // Scheduled 20 ms apart: 980 ms from first to last. A burst would put them all within a few ms.
  t.ok(span > 800 && span < 1500, `spread over the second (${span.toFixed(0)} ms)`)
  t.ok(Math.max(...gaps) < 120, `no long pause between sends (largest gap ${Math.max(...gaps).toFixed(0)} ms)`)
  t.ok(arrivals.filter((at) => at - arrivals[0]! < 100).length <= 8, 'no burst at the start')
  t.ok(result.latency.p50 >= ANSWER_MS && result.latency.p50 < ANSWER_MS + 80, `latency counts the answer (p50 ${result.latency.p50.toFixed(1)} ms)`)
  t.ok(result.latency.p99 >= result.latency.p50 && result.latency.max >= result.latency.p99)
  t.ok(result.clientLateness.p99 >= 0)
})

t.test('an answer other than 2xx fails the run, so an error page is never measured', async (t) => {
  const { base } = await slowServer(t)
  await t.rejects(runProbe({ url: `${base}/missing`, rate: 20, duration: 0.5, connections: 2 }), /non-2xx/)
})
