// Where a cold designer page image spends its time, step by step, in the compiled tree npm start
// runs (dist/, from bin/compile-for-start.ts), in a process started with the start script's node
// options: the sample PDF (pdf-lib), mupdf's WebAssembly compiled in the main thread, a worker
// thread started, mupdf loaded and instantiated in it, the document opened, the page drawn, the
// PNG encoded, the file written. Wall ms and CPU ms of the whole process (every thread) per step.
// Run: node --import tsx bench/tools/page-image-cold-breakdown.ts [runs]
import { execFile } from 'node:child_process'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { promisify } from 'node:util'
import { fileURLToPath } from 'node:url'
import { median } from '../lib/rows.ts'
import { compileOnce, startScriptNodeArgs } from '../lib/start-server.ts'

const exec = promisify(execFile)
const ROOT = fileURLToPath(new URL('../..', import.meta.url))
const RUNS = Number(process.argv[2] ?? 5)

// Runs in the measured process (plain JavaScript against dist/).
const PROBE = String.raw`
import { performance } from 'node:perf_hooks'
import { Worker } from 'node:worker_threads'
import { readFile, writeFile } from 'node:fs/promises'
import { createRequire } from 'node:module'
import path from 'node:path'
const root = process.argv[1], storage = process.argv[2]
const steps = {}
let t = performance.now(), c = process.cpuUsage()
const mark = (name) => { const now = performance.now(), cpu = process.cpuUsage(); steps[name] = { wall: now - t, cpu: (cpu.user - c.user + cpu.system - c.system) / 1000 }; t = now; c = cpu }
const { buildApp } = await import(root + '/dist/host-app/app.js')
const app = await buildApp({ env: { STORAGE_PATH: storage, LOG_LEVEL: 'warn' } })
await app.ready()
mark('boot (not counted)')
const pdfPath = await app.signature.registry.get('payslip').renderSample()
mark('sample PDF (pdf-lib, main thread)')
const entry = createRequire(root + '/package.json').resolve('mupdf')
const wasmBytes = await readFile(path.join(path.dirname(entry), 'mupdf-wasm.wasm'))
mark('read mupdf-wasm.wasm')
const module = await WebAssembly.compile(wasmBytes)
mark('WebAssembly.compile (main thread, async)')
const code = ${'`'}
import { parentPort, workerData } from 'node:worker_threads'
import { performance } from 'node:perf_hooks'
parentPort.postMessage({ step: 'thread up' })
globalThis.$libmupdf_wasm_Module = { instantiateWasm(imports, receive) { void WebAssembly.instantiate(workerData.module, imports).then(receive); return {} } }
const mupdf = await import('mupdf')
parentPort.postMessage({ step: 'mupdf loaded + instantiated' })
const { readFile } = await import('node:fs/promises')
const { encodePng } = await import(workerData.root + '/dist/plugins/signature/rasterizer/encode-png.js')
const bytes = await readFile(workerData.pdfPath)
const doc = mupdf.Document.openDocument(bytes, 'application/pdf')
const page = doc.loadPage(0)
parentPort.postMessage({ step: 'open document + page' })
const pixmap = page.toPixmap(mupdf.Matrix.scale(2, 2), mupdf.ColorSpace.DeviceRGB, false, true)
parentPort.postMessage({ step: 'draw page (144 DPI)' })
const png = encodePng(pixmap.getPixels(), pixmap.getWidth(), pixmap.getHeight(), pixmap.getStride())
parentPort.postMessage({ step: 'PNG encode (node:zlib)', png })
${'`'}
const worker = new Worker(code, { eval: true, workerData: { module, root, pdfPath } })
mark('new Worker() returns')
let png
await new Promise((resolve, reject) => {
  worker.on('message', (m) => { mark(m.step); if (m.png) { png = m.png; resolve() } })
  worker.on('error', reject)
})
await writeFile(path.join(storage, 'page.png'), png)
mark('write PNG to disk')
await worker.terminate()
await app.close()
process.stdout.write(JSON.stringify(steps))
`

await compileOnce()
const nodeArgs = await startScriptNodeArgs()
const runs: Record<string, { wall: number; cpu: number }>[] = []
for (let i = 0; i < RUNS; i++) {
  const storage = await mkdtemp(path.join(tmpdir(), 'bench-cold-breakdown-'))
  try {
    const { stdout } = await exec(process.execPath, [...nodeArgs, '--input-type=module', '-e', PROBE, ROOT, storage], { cwd: ROOT, maxBuffer: 1 << 24 })
    runs.push(JSON.parse(stdout))
  } finally {
    await rm(storage, { recursive: true, force: true })
  }
}
console.log(`medians of ${RUNS} processes (wall ms / CPU ms of the whole process):`)
for (const step of Object.keys(runs[0]!)) {
  console.log(`  ${step.padEnd(44)} ${median(runs.map((r) => r[step]!.wall)).toFixed(1).padStart(7)} / ${median(runs.map((r) => r[step]!.cpu)).toFixed(1).padStart(7)}`)
}
