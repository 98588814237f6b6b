// Row M: what METRICS=on costs a request (issue 41, goal <= 2 µs of CPU): two `npm start`
// processes, metrics off and on (a token set, nobody scraping but once at the end), the same
// signed-in JSON request at a fixed rate, A-B-B-A rounds. CPU is summed over every thread of the
// server process from /proc/<pid>/task/*/schedstat (nanoseconds): /proc/<pid>/stat counts in
// 10 ms ticks, about 1 µs per request at these volumes, as much as the figure measured.
import { runLoad, runProbe } from '../lib/load.ts'
import { median, pick, type Row } from '../lib/rows.ts'
import { startServer, threadsCpuMicros, type StartedServer } from '../lib/start-server.ts'

const URL_PATH = '/api/users?perPage=10'
const RATE = Number(process.env.BENCH_METRICS_RATE ?? 2000)
const SECONDS = Number(process.env.BENCH_METRICS_SECONDS ?? pick(6, 2))
const ROUNDS = Number(process.env.BENCH_METRICS_ROUNDS ?? pick(3, 1))
const TOKEN = 'bench-metrics-token-0123456789'
const GOAL_MICROS = 2

export async function run(): Promise<Row[]> {
  const sides = {
    off: await startServer(undefined, { METRICS: 'off' }),
    on: await startServer(undefined, { METRICS: 'on', METRICS_TOKEN: TOKEN }),
  }
  try {
    const cookies = { off: await sides.off.login(), on: await sides.on.login() }
    const perRequest: Record<'off' | 'on', number[]> = { off: [], on: [] }
    const measure = async (name: 'off' | 'on') => {
      const server: StartedServer = sides[name]
      const before = await threadsCpuMicros(server.child.pid!)
      const result = await runProbe({ url: server.base + URL_PATH, rate: RATE, duration: SECONDS, connections: 10, headers: { cookie: cookies[name] } })
      const used = await threadsCpuMicros(server.child.pid!) - before
      if (result.non2xx || result.errors) throw new Error(`${name}: ${result.non2xx} non-2xx, ${result.errors} errors`)
      perRequest[name].push(used / result.total)
    }
    for (const name of ['off', 'on'] as const) await runLoad({ url: sides[name].base + URL_PATH, connections: 50, duration: pick(3, 1), headers: { cookie: cookies[name] } })
    for (let round = 0; round < ROUNDS; round++) {
      await measure('off'); await measure('on'); await measure('on'); await measure('off')
    }
    // The metrics process did count them: its counter for the route is read once, as a scraper would.
    const scraped = await (await fetch(`${sides.on.base}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } })).text()
    const counted = Number(/http_requests_total\{method="GET",route="\/api\/users",status_class="2xx"\} (\d+)/.exec(scraped)?.[1] ?? 0)
    if (counted === 0) throw new Error('the METRICS=on server counted no request of /api/users')

    const off = median(perRequest.off)
    const on = median(perRequest.on)
    const added = on - off
    const list = (values: number[]) => values.map((v) => v.toFixed(1)).join(', ')
    return [{
      id: 'M', what: `GET ${URL_PATH} signed in, npm start: METRICS=on / off, server CPU per request (every thread) at a fixed ${RATE} req/s, ${ROUNDS} x A-B-B-A of ${SECONDS} s, medians`,
      ours: `${on.toFixed(1)} µs CPU/req (${added >= 0 ? '+' : ''}${added.toFixed(1)} µs)`, baseline: `${off.toFixed(1)} µs CPU/req`,
      ratio: `${(on / off).toFixed(2)}x`, bar: `<= +${GOAL_MICROS} µs`, met: added <= GOAL_MICROS,
      data: { rate: RATE, seconds: SECONDS, rounds: ROUNDS, on: perRequest.on, off: perRequest.off, added, countedByMetrics: counted, runs: `off [${list(perRequest.off)}], on [${list(perRequest.on)}]` },
    }]
  } finally {
    await Promise.all([sides.off.stop(), sides.on.stop()])
  }
}
