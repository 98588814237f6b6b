// Row 9: RSS of what `npm start` runs (host-app/server.ts compiled, in a process of its own, its log to
// /dev/null), 10 s after it listens, after a load (signed-in pages and JSON under autocannon, and
// page images, which start the rasterizer worker and render a sample), and after an idle spell.
// Read from /proc/<pid>/status, as a process supervisor would see it; no forced collection.
import { runLoad } from '../lib/load.ts'
import { mib, pick, type Row } from '../lib/rows.ts'
import { sleep, startServer } from '../lib/start-server.ts'

const GOAL = 150 * 1024 * 1024

export async function run(): Promise<Row[]> {
  const server = await startServer()
  const { base } = server
  try {
    await sleep(10_000)
    const start = await server.rss()

    const cookie = await server.login()
    const seconds = pick(5, 2)
    for (const url of ['/api/users?perPage=10', '/dashboard', '/admin/users']) await runLoad({ url: base + url, connections: 50, duration: seconds, headers: { cookie } })
    // Page images: renders the payslip sample (pdf-lib, main thread) and starts the rasterizer.
    const meta = await fetch(`${base}/admin/signature-templates/payslip/design/meta`, { headers: { cookie } })
    if (!meta.ok) throw new Error(`designer meta: ${meta.status}`)
    for (let i = 0; i < 20; i++) {
      const image = await fetch(`${base}/admin/signature-templates/payslip/design/pages/1`, { headers: { cookie } })
      if (!image.ok) throw new Error(`page image: ${image.status}`)
      await image.arrayBuffer()
    }
    const loaded = await server.rss()

    const idleSeconds = pick(60, 15)
    await sleep(idleSeconds * 1000)
    const idle = await server.rss()
    return [{
      id: '9', what: `RSS of npm start's process (host-app/server.ts, compiled): 10 s after it listens; after ${3 * seconds} s of signed-in load and 20 page images; after ${idleSeconds} s idle`,
      ours: `start ${mib(start)}; after load ${mib(loaded)}; after idle ${mib(idle)}`,
      baseline: '-', ratio: '-', bar: `start <= ${mib(GOAL)}`, met: start <= GOAL,
      data: { start, loaded, idle, idleSeconds },
    }]
  } finally {
    await server.stop()
  }
}
