// npm run bench: every row of issue 9's table, each against a baseline measured in this run.
// Each section runs in a process of its own; the table is printed and written as JSON to
// bench/results/latest.json (git-ignored). BENCH_QUICK=1 shortens everything for a smoke run;
// BENCH_ONLY=http,signing runs only the named sections.
import { fork } from 'node:child_process'
import { mkdirSync, writeFileSync } from 'node:fs'
import { cpus, loadavg, totalmem } from 'node:os'
import { fileURLToPath } from 'node:url'
import { QUICK, type Row } from './lib/rows.ts'
import { startScriptNodeArgs } from './lib/start-server.ts'

const SECTIONS: Array<{ name: string; file: string; execArgv?: string[] }> = [
  { name: 'http', file: 'sections/http.ts' },
  // Issue 40 item 3: npm start's process against bare Fastify in a process of its own.
  { name: 'process-http', file: 'sections/process-http.ts' },
  { name: 'people-list', file: 'sections/people-list.ts' },
  { name: 'people-scale', file: 'sections/people-scale.ts' },
  { name: 'page-images', file: 'sections/page-images.ts' },
  { name: 'signing', file: 'sections/signing.ts' },
  { name: 'verify', file: 'sections/verify.ts' },
  { name: 'timestamps', file: 'sections/timestamps.ts' },
  { name: 'ltv', file: 'sections/ltv.ts' },
  { name: 'memory', file: 'sections/memory.ts', execArgv: ['--expose-gc'] },
  { name: 'process-memory', file: 'sections/process-memory.ts' },
  // Issue 41: what METRICS=on costs a request, on two npm start processes.
  { name: 'metrics', file: 'sections/metrics.ts' },
  // The peers (bench/peers, installed on demand): AdminJS for the People rows, three signers.
  { name: 'peer-http', file: 'sections/peer-http.ts' },
  { name: 'peer-signers', file: 'sections/peer-signers.ts' },
]

const only = process.env.BENCH_ONLY?.split(',')
const runner = fileURLToPath(new URL('./lib/section-runner.ts', import.meta.url))
// Every section runs under npm start's node options (V8 heap settings change both CPU and RSS),
// with tsx to load the sections themselves; rows about the server process start npm start's
// compiled server (lib/start-server.ts).
const startArgs = [...await startScriptNodeArgs(), '--import', 'tsx']

function runSection(file: string, execArgv: string[] = []): Promise<Row[]> {
  return new Promise((resolve, reject) => {
    const child = fork(runner, [fileURLToPath(new URL(file, import.meta.url))], { execArgv: [...startArgs, ...execArgv], stdio: 'inherit' })
    let rows: Row[] | undefined
    child.on('message', (message: { rows: Row[] }) => { rows = message.rows })
    child.on('error', reject)
    child.on('exit', (code) => (rows && code === 0 ? resolve(rows) : reject(new Error(`${file} exited with ${code}`))))
  })
}

const machine = {
  cpu: cpus()[0]?.model ?? 'unknown',
  cores: cpus().length,
  memory: `${Math.round(totalmem() / 1024 ** 3)} GiB`,
  node: process.version,
  platform: `${process.platform} ${process.arch}`,
}
const started = Date.now()
// Other work on the machine (a test run, a build) moves absolute figures; ratios less so.
const loadBefore = loadavg()[0]!
const rows: Row[] = []
const failures: string[] = []
for (const section of SECTIONS) {
  if (only && !only.includes(section.name)) continue
  const t0 = Date.now()
  process.stderr.write(`bench: ${section.name}...\n`)
  try {
    rows.push(...(await runSection(section.file, section.execArgv)))
  } catch (error) {
    failures.push(`${section.name}: ${(error as Error).message}`)
  }
  process.stderr.write(`bench: ${section.name} done in ${((Date.now() - t0) / 1000).toFixed(1)} s\n`)
}
const seconds = (Date.now() - started) / 1000
const loadAfter = loadavg()[0]!

const verdict = (met: boolean | null) => (met === null ? '' : met ? 'met' : 'NOT met')
const columns = ['#', 'what', 'ours', 'baseline', 'ratio', 'bar', 'met'] as const
const cells = rows.map((r) => [r.id, r.what, r.ours, r.baseline, r.ratio, r.bar, verdict(r.met)])
const widths = columns.map((c, i) => Math.max(c.length, ...cells.map((row) => row[i]!.length)))
const line = (values: readonly string[]) => `| ${values.map((v, i) => v.padEnd(widths[i]!)).join(' | ')} |`
console.log(`\nMachine: ${machine.cpu}, ${machine.cores} cores, ${machine.memory} RAM, Node ${machine.node}, ${machine.platform}; load average ${loadBefore.toFixed(2)} before, ${loadAfter.toFixed(2)} after${QUICK ? '  (BENCH_QUICK=1: shortened, not for the record)' : ''}`)
console.log(line(columns))
console.log(`|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`)
for (const row of cells) console.log(line(row))
console.log(`\n${rows.filter((r) => r.met === true).length} bars met, ${rows.filter((r) => r.met === false).length} not met; ${seconds.toFixed(0)} s in all`)
for (const failure of failures) console.log(`SECTION FAILED: ${failure}`)

const out = fileURLToPath(new URL('./results/latest.json', import.meta.url))
mkdirSync(fileURLToPath(new URL('./results/', import.meta.url)), { recursive: true })
writeFileSync(out, JSON.stringify({ date: new Date().toISOString(), quick: QUICK, seconds, machine, loadAverage: { before: loadBefore, after: loadAfter }, rows, failures }, null, 2))
console.log(`written to ${path_(out)}`)
process.exitCode = failures.length ? 1 : 0

function path_(p: string) { return p.replace(process.cwd() + '/', '') }
