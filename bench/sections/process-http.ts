// Row 1'' (issue 40 item 3): what `npm start` runs against bare Fastify, each a process of its
// own as a user would run them (row 1' builds both inside the measuring process): the signed-in
// JSON list of 10 users against bare Fastify sending the same bytes, both started with npm start's
// node options, at a fixed rate, A-B-B-A rounds. CPU is every thread of each server process
// (schedstat); the row gives the median of the rounds' ratios and their spread.
import { spawn } from 'node:child_process'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { runLoad, runProbe } from '../lib/load.ts'
import { median, pick, type Row } from '../lib/rows.ts'
import { startScriptNodeArgs, startServer, threadsCpuMicros } from '../lib/start-server.ts'

const URL_PATH = '/api/users?perPage=10'
const RATE = Number(process.env.BENCH_PROCESS_RATE ?? 2000)
const SECONDS = Number(process.env.BENCH_PROCESS_SECONDS ?? pick(6, 2))
const ROUNDS = Number(process.env.BENCH_PROCESS_ROUNDS ?? pick(4, 1))
const BARE = fileURLToPath(new URL('../lib/bare-json-server.mjs', import.meta.url))

async function startBare(bodyFile: string): Promise<{ base: string; pid: number; stop(): Promise<void> }> {
  const child = spawn(process.execPath, [...await startScriptNodeArgs(), BARE, bodyFile], { stdio: ['ignore', 'pipe', 'inherit'] })
  const base = await new Promise<string>((resolve, reject) => {
    let out = ''
    child.stdout!.on('data', (chunk) => { out += chunk; const line = /^(http:\/\/\S+)\n/.exec(out); if (line) resolve(line[1]!) })
    child.once('exit', (code) => reject(new Error(`the bare server exited with ${code}`)))
  })
  const exited = new Promise((resolve) => child.once('exit', resolve))
  return { base, pid: child.pid!, async stop() { child.kill('SIGTERM'); await exited } }
}

export async function run(): Promise<Row[]> {
  const dir = await mkdtemp(path.join(tmpdir(), 'bench-process-http-'))
  const ours = await startServer()
  let bare: Awaited<ReturnType<typeof startBare>> | undefined
  try {
    const cookie = await ours.login()
    const response = await fetch(ours.base + URL_PATH, { headers: { cookie } })
    const body = Buffer.from(await response.arrayBuffer())
    if (!response.ok) throw new Error(`GET ${URL_PATH}: ${response.status}`)
    await writeFile(path.join(dir, 'users.json'), body)
    bare = await startBare(path.join(dir, 'users.json'))
    const check = Buffer.from(await (await fetch(bare.base + '/api/users')).arrayBuffer())
    if (!check.equals(body)) throw new Error('the bare server does not send the same bytes')
    const sides = {
      ours: { url: ours.base + URL_PATH, pid: ours.child.pid!, headers: { cookie } as Record<string, string> },
      bare: { url: bare.base + '/api/users', pid: bare.pid, headers: {} as Record<string, string> },
    }
    const perRequest: Record<'ours' | 'bare', number[]> = { ours: [], bare: [] }
    const measure = async (name: 'ours' | 'bare') => {
      const side = sides[name]
      const before = await threadsCpuMicros(side.pid)
      const result = await runProbe({ url: side.url, rate: RATE, duration: SECONDS, connections: 10, headers: side.headers })
      if (result.non2xx || result.errors) throw new Error(`${name}: ${result.non2xx} non-2xx, ${result.errors} errors`)
      perRequest[name].push((await threadsCpuMicros(side.pid) - before) / result.total)
    }
    for (const name of ['ours', 'bare'] as const) await runLoad({ url: sides[name].url, connections: 50, duration: pick(3, 1), headers: sides[name].headers })
    for (let round = 0; round < ROUNDS; round++) {
      await measure('bare'); await measure('ours'); await measure('ours'); await measure('bare')
    }
    // Each round's ratio from its own A-B-B-A: what drifts during the run cancels within a round.
    const ratios = Array.from({ length: ROUNDS }, (_, r) => (perRequest.ours[2 * r]! + perRequest.ours[2 * r + 1]!) / (perRequest.bare[2 * r]! + perRequest.bare[2 * r + 1]!))
    const oursMedian = median(perRequest.ours)
    const bareMedian = median(perRequest.bare)
    const list = (values: number[], digits = 1) => values.map((v) => v.toFixed(digits)).join(', ')
    return [{
      id: "1''", what: `GET ${URL_PATH} signed in: npm start's process / bare Fastify in a process of its own, same bytes, same node options; server CPU per request (every thread) at a fixed ${RATE} req/s, ${ROUNDS} x B-A-A-B of ${SECONDS} s; median of the rounds' ratios (spread)`,
      ours: `${oursMedian.toFixed(1)} µs CPU/req (+${(oursMedian - bareMedian).toFixed(1)} µs)`, baseline: `${bareMedian.toFixed(1)} µs CPU/req`,
      ratio: `${median(ratios).toFixed(2)}x (${Math.min(...ratios).toFixed(2)}-${Math.max(...ratios).toFixed(2)})`, bar: '', met: null,
      data: { rate: RATE, seconds: SECONDS, rounds: ROUNDS, ours: perRequest.ours, bare: perRequest.bare, ratios, runs: `ours [${list(perRequest.ours)}], bare [${list(perRequest.bare)}], ratios [${list(ratios, 2)}]` },
    }]
  } finally {
    await Promise.all([ours.stop(), bare?.stop()])
    await rm(dir, { recursive: true, force: true })
  }
}
