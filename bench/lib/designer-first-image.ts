// The designer's first page image as npm start serves it (issue 40 item 7), shared by row 4a
// (bench/sections/page-images.ts) and bench/tools/page-image-cold.ts: a fresh compiled server,
// signed in, then what a browser does when the designer is opened (the page, its styles and
// scripts, the page sizes, page 1), each request timed (wall) and billed (CPU of every thread of
// the server, schedstat), then `pdftoppm -r 144 -png -singlefile` on the same sample PDF in a
// process of its own (wall, and CPU from /usr/bin/time).
import { execFile } from 'node:child_process'
import { mkdtemp, readdir, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { performance } from 'node:perf_hooks'
import { promisify } from 'node:util'
import { sleep, startServer, threadsCpuMicros } from './start-server.ts'

const exec = promisify(execFile)

export interface Timed { wall: number; cpu: number }

async function timed(pid: number, fn: () => Promise<unknown>): Promise<Timed> {
  const cpu0 = await threadsCpuMicros(pid)
  const t0 = performance.now()
  await fn()
  const wall = performance.now() - t0
  return { wall, cpu: (await threadsCpuMicros(pid) - cpu0) / 1000 }
}

async function get(url: string, cookie: string): Promise<void> {
  const response = await fetch(url, { headers: { cookie } })
  if (!response.ok) throw new Error(`${url}: ${response.status}`)
  await response.arrayBuffer()
}

async function findPdf(dir: string): Promise<string> {
  const entries = await readdir(dir, { recursive: true })
  const pdf = entries.find((entry) => entry.endsWith('.pdf'))
  if (!pdf) throw new Error(`no PDF under ${dir}`)
  return path.join(dir, pdf)
}

/** One process of pdftoppm on one page at 144 DPI: wall ms and user+system ms as /usr/bin/time reports them. */
export async function pdftoppm(pdf: string, out: string, page = 1): Promise<Timed> {
  const t0 = performance.now()
  const { stderr } = await exec('/usr/bin/time', ['-f', '%U %S', 'pdftoppm', '-r', '144', '-png', '-f', String(page), '-l', String(page), '-singlefile', pdf, out])
  const wall = performance.now() - t0
  const [user, sys] = stderr.trim().split('\n').at(-1)!.split(' ').map(Number)
  return { wall, cpu: (user! + sys!) * 1000 }
}

/** Wall and CPU ms of each request, of the whole (designer requested -> page 1 image received), and of pdftoppm. */
export interface ColdRun { designer: Timed; scripts: Timed; meta: Timed; page: Timed; total: Timed; poppler: Timed }

/** One fresh server: the designer's requests in the order the browser makes them, then pdftoppm on the same PDF. */
export async function coldRun(template = 'payslip', settleMs = 2000): Promise<ColdRun> {
  const storage = await mkdtemp(path.join(tmpdir(), 'bench-page-cold-'))
  const server = await startServer(undefined, { STORAGE_PATH: storage, LOG_LEVEL: 'warn' })
  try {
    const pid = server.child.pid!
    const cookie = await server.login()
    // Let the start's own work settle, as a designer opened some time after a restart would see it.
    await sleep(settleMs)
    const base = `${server.base}/admin/signature-templates/${template}/design`
    const cpu0 = await threadsCpuMicros(pid)
    const opened = performance.now()
    let html = ''
    const designer = await timed(pid, async () => {
      const response = await fetch(base, { headers: { cookie } })
      if (!response.ok) throw new Error(`${base}: ${response.status}`)
      html = await response.text()
    })
    // What a browser does next: the page's styles and scripts, at once, then the script asks.
    const assets = [...html.matchAll(/<(?:script[^>]*\bsrc|link[^>]*\bhref)="(\/[^"]+)"/g)].map((m) => m[1]!)
    const scripts = await timed(pid, () => Promise.all(assets.map((asset) => get(server.base + asset, cookie))))
    const meta = await timed(pid, () => get(`${base}/meta`, cookie))
    const page = await timed(pid, () => get(`${base}/pages/1`, cookie))
    const total = { wall: performance.now() - opened, cpu: (await threadsCpuMicros(pid) - cpu0) / 1000 }
    const pdf = await findPdf(storage)
    await pdftoppm(pdf, path.join(storage, 'warmup'))
    const poppler = await pdftoppm(pdf, path.join(storage, 'poppler'))
    return { designer, scripts, meta, page, total, poppler }
  } finally {
    await server.stop()
    await rm(storage, { recursive: true, force: true })
  }
}

