// Start RSS of npm start's process, several starts in a row: what row 9 reads once. Each start
// is read 10 s after it listens, with its anonymous memory and the part of it in V8's 256 KiB
// heap pages (a start whose heap never reached a full collection keeps its start-up garbage).
//   node --import tsx bench/tools/rss-probe.ts [starts]
import { readFile } from 'node:fs/promises'
import { mib } from '../lib/rows.ts'
import { sleep, startServer } from '../lib/start-server.ts'

const starts = Number(process.argv[2] ?? 4)
const ofKib = (kib: number) => mib(kib * 1024)
for (let i = 0; i < starts; i++) {
  const server = await startServer()
  await sleep(10_000)
  const pid = server.child.pid!
  const rollup = await readFile(`/proc/${pid}/smaps_rollup`, 'utf8')
  const field = (name: string) => Number(new RegExp(`^${name}:\\s+(\\d+)`, 'm').exec(rollup)![1])
  // Unnamed mappings of exactly 256 KiB: V8's heap pages.
  let heapPages = 0
  let heapKib = 0
  for (const block of (await readFile(`/proc/${pid}/smaps`, 'utf8')).split(/\n(?=[0-9a-f]+-[0-9a-f]+ )/)) {
    const header = /^([0-9a-f]+)-([0-9a-f]+) \S+ \S+ \S+ \S+[ \t]*(\S*)/.exec(block)
    if (!header || header[3] || parseInt(header[2]!, 16) - parseInt(header[1]!, 16) !== 256 * 1024) continue
    heapPages++
    heapKib += Number(/^Rss:\s+(\d+)/m.exec(block)![1])
  }
  console.log(`start ${i + 1}: RSS ${ofKib(field('Rss'))}, anonymous ${ofKib(field('Anonymous'))}, V8 heap pages ${heapPages} (${ofKib(heapKib)})`)
  await server.stop()
}
