// Self time by function and by file from a .cpuprofile (V8's --cpu-prof output), top N.
import { readFileSync } from 'node:fs'

interface Node { id: number; callFrame: { functionName: string; url: string; lineNumber: number }; children?: number[] }
const file = process.argv[2]
if (!file) throw new Error('usage: summarize-profile.ts <file.cpuprofile> [top]')
const top = Number(process.argv[3] ?? 25)
const profile = JSON.parse(readFileSync(file, 'utf8')) as { nodes: Node[]; samples: number[]; timeDeltas: number[] }
const byId = new Map(profile.nodes.map((n) => [n.id, n]))
const self = new Map<number, number>()
profile.samples.forEach((id, i) => self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0)))
const total = [...self.values()].reduce((a, b) => a + b, 0)
const short = (url: string) => url.replace(/^file:\/\//, '').replace(/.*\/node_modules\//, 'nm:').replace(/.*\/work\/main\//, '')
const add = (map: Map<string, number>, key: string, us: number) => map.set(key, (map.get(key) ?? 0) + us)
const fns = new Map<string, number>()
const files = new Map<string, number>()
for (const [id, us] of self) {
  const { functionName, url, lineNumber } = byId.get(id)!.callFrame
  add(fns, `${functionName || '(anonymous)'} ${short(url)}:${lineNumber + 1}`, us)
  const pkg = short(url).startsWith('nm:') ? short(url).split('/').slice(0, short(url).startsWith('nm:@') ? 2 : 1).join('/') : short(url) || '(native/v8)'
  add(files, pkg, us)
}
const print = (title: string, map: Map<string, number>) => {
  console.log(`\n${title}`)
  for (const [key, us] of [...map].sort((a, b) => b[1] - a[1]).slice(0, top)) console.log(`${((100 * us) / total).toFixed(1).padStart(5)} %  ${key}`)
}
// Inclusive time of the project's own functions (not node_modules): who calls the costly parts.
const parent = new Map<number, number>()
for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id)
const inclusive = new Map<string, number>()
profile.samples.forEach((id, i) => {
  const seen = new Set<string>()
  for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
    const { functionName, url, lineNumber } = byId.get(at)!.callFrame
    if (!url.includes('/work/main/') || url.includes('/node_modules/')) continue
    const key = `${functionName || '(anonymous)'} ${short(url)}:${lineNumber + 1}`
    if (!seen.has(key)) { seen.add(key); add(inclusive, key, profile.timeDeltas[i] ?? 0) }
  }
})
print('self time by function', fns)
print("inclusive time of the project's own functions", inclusive)
print('self time by file / package', files)
