// CPU per request of npm start's process under two sets of node options, A-B-B-A:
//   node --import tsx bench/tools/compare-server-flags.ts "--single-threaded-gc" "--max-semi-space-size=4 --single-threaded-gc" [url] [rate] [seconds] [rounds]
// Both servers run at once (idle while the other is measured); each measurement is a steady
// open-loop probe, and CPU is the whole process's (every thread) from /proc. RSS is read after.
import { loadavg } from 'node:os'
import { runLoad, runProbe } from '../lib/load.ts'
import { median, mib } from '../lib/rows.ts'
import { startServer, type StartedServer } from '../lib/start-server.ts'

const [a = '--single-threaded-gc', b = '--max-semi-space-size=4 --single-threaded-gc', url = '/api/users?perPage=10', rate = '1000', seconds = '5', rounds = '3'] = process.argv.slice(2)
const servers = { A: await startServer(a.split(' ')), B: await startServer(b.split(' ')) }
const cookies = { A: await servers.A.login(), B: await servers.B.login() }
const perRequest: Record<'A' | 'B', number[]> = { A: [], B: [] }

async function measure(name: 'A' | 'B', server: StartedServer): Promise<void> {
  const before = await server.cpuMicros()
  const result = await runProbe({ url: server.base + url, rate: Number(rate), duration: Number(seconds), connections: 10, headers: { cookie: cookies[name] } })
  perRequest[name].push(((await server.cpuMicros()) - before) / result.total)
}

try {
  console.log(`load average before: ${loadavg().map((l) => l.toFixed(2)).join(' ')}`)
  for (const name of ['A', 'B'] as const) await runLoad({ url: servers[name].base + url, connections: 50, duration: 3, headers: { cookie: cookies[name] } })
  for (let round = 0; round < Number(rounds); round++) {
    await measure('A', servers.A); await measure('B', servers.B); await measure('B', servers.B); await measure('A', servers.A)
  }
  for (const name of ['A', 'B'] as const) {
    console.log(`${name} (${name === 'A' ? a : b}): ${median(perRequest[name]).toFixed(1)} µs CPU/req median of [${perRequest[name].map((v) => v.toFixed(1)).join(', ')}]; RSS now ${mib(await servers[name].rss())}`)
  }
  console.log(`B / A: ${(median(perRequest.B) / median(perRequest.A)).toFixed(3)}; load average after: ${loadavg().map((l) => l.toFixed(2)).join(' ')}`)
} finally {
  await servers.A.stop()
  await servers.B.stop()
}
