// Rows P3a/P3b: one signature by our engine (visible stamp + PKCS#7 + DocMDP certification)
// against the signers people use — Documenso's (@documenso/pdf-sign), @libpdf/core and @signpdf —
// on the same 1- and 100-page inputs with the same key. Each output is checked by pdfsig before
// anything is timed: a signer whose file doesn't verify gets a row saying so and no time.
// Rounds alternate the order (forward, then reversed) so drift in the machine's load falls on all.
// Besides the wall time (the bar), each signature's CPU time, measured in the signer's own process
// (every thread): on a machine shared with other work it moves less than the wall time, which
// includes waiting for a core, and no signer is billed for another's garbage collection.
import { fork, type ChildProcess } from 'node:child_process'
import { once } from 'node:events'
import { createCertificateAuthority, issueUserCertificate } from '../../plugins/signature/certificates/index.ts'
import { makePdf } from '../../test/fixtures/pdf/make-pdf.ts'
import { ensurePeersInstalled } from '../lib/peers.ts'
import { median, ms, pick, x, type Row } from '../lib/rows.ts'
import type { SignerKind, SignerMessage, SignerReply } from '../lib/signer-process.ts'
import type { Verdict } from '../lib/verified-output.ts'

export interface Signer { name: string; kind: SignerKind }
/** times: wall ms per signature; cpu: the signer's own process's CPU ms (every thread) per signature. */
export interface Timed { name: string; verdict: Verdict; times: number[]; cpu: number[] }

const SIGNER_PROCESS = new URL('../lib/signer-process.ts', import.meta.url)

/** A signer's process: asked one thing at a time, it answers that. */
async function startSigner(kind: SignerKind, p12: Uint8Array, password: string) {
  const child: ChildProcess = fork(SIGNER_PROCESS, [JSON.stringify({ kind, p12: Buffer.from(p12).toString('base64'), password })], {
    execArgv: ['--import', 'tsx'], serialization: 'advanced', stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
  })
  await once(child, 'message')
  const ask = async <T extends SignerReply>(message: SignerMessage): Promise<T> => {
    child.send(message)
    const [answer] = await once(child, 'message')
    return answer as T
  }
  return { ask, stop: () => { child.send({ exit: true }); return once(child, 'exit') } }
}

/**
 * Each signer runs in a process of its own. Every signer's output is checked with pdfsig, then the
 * ones that passed are timed in alternating rounds (`calls` signatures each per round, after one
 * warm-up call). A signer that throws or whose output fails is returned with its verdict and no times.
 */
export async function timeVerifiedSigners(signers: Signer[], pdf: Uint8Array, rounds: number, calls: number, p12: Uint8Array, password: string): Promise<Timed[]> {
  const processes = await Promise.all(signers.map((signer) => startSigner(signer.kind, p12, password)))
  try {
    const results: Timed[] = []
    for (const [i, signer] of signers.entries()) {
      const { verdict } = await processes[i]!.ask<{ verdict: Verdict }>({ pdf })
      results.push({ name: signer.name, verdict, times: [], cpu: [] })
    }
    const valid = signers.flatMap((_, i) => (results[i]!.verdict.valid ? [i] : []))
    for (let round = 0; round < rounds; round++) {
      for (const i of round % 2 ? [...valid].reverse() : valid) {
        const { times, cpu } = await processes[i]!.ask<{ times: number[]; cpu: number[] }>({ calls })
        results[i]!.times.push(...times)
        results[i]!.cpu.push(...cpu)
      }
    }
    return results
  } finally {
    await Promise.all(processes.map((p) => p.stop()))
  }
}

/** The rows of one document size: each peer against ours, the fastest verified peer with the bar. */
export function signerRows(id: string, pages: number, ours: Timed, peers: Timed[], rounds: number): Row[] {
  if (!ours.verdict.valid) throw new Error(`our signature on ${pages} pages fails pdfsig: ${JSON.stringify(ours.verdict.verdicts)}`)
  const oursMs = median(ours.times)
  const oursCell = `${ms(oursMs)} (CPU ${ms(median(ours.cpu))})`
  const verified = peers.filter((p) => p.verdict.valid)
  const fastest = verified.length ? verified.reduce((a, b) => (median(a.times) <= median(b.times) ? a : b)) : undefined
  return peers.map((peer, i) => {
    const base = { id: `${id}${String.fromCharCode(97 + i)}`, what: `One signature, ${pages}-page PDF: ours (stamp + DocMDP) / ${peer.name} (invisible, no DocMDP), median` }
    if (!peer.verdict.valid) {
      return { ...base, ours: oursCell, baseline: `output fails pdfsig: ${peer.verdict.verdicts.join('; ') || 'no signature found'}`, ratio: '-', bar: '', met: null, data: { pages, peer: peer.name, verdicts: peer.verdict.verdicts } }
    }
    const ratio = oursMs / median(peer.times)
    const cpuRatio = median(ours.cpu) / median(peer.cpu)
    const isFastest = peer === fastest
    return {
      ...base, ours: oursCell, baseline: `${ms(median(peer.times))} (CPU ${ms(median(peer.cpu))})${isFastest ? ', fastest peer' : ''}`,
      ratio: `${x(ratio)} (CPU ${x(cpuRatio)})`, bar: isFastest ? '<= 1.00' : '', met: isFastest ? ratio <= 1 : null,
      data: { pages, peer: peer.name, rounds, oursMs: ours.times, peerMs: peer.times, oursCpuMs: ours.cpu, peerCpuMs: peer.cpu, ratio, cpuRatio },
    }
  })
}

export async function run(): Promise<Row[]> {
  ensurePeersInstalled()
  const ca = createCertificateAuthority({ commonName: 'Bench CA' })
  const issued = issueUserCertificate(ca, { name: 'Bench Signer', email: 'signer@example.org' })
  const signers: Signer[] = [
    { name: 'ours', kind: 'ours' },
    { name: 'Documenso @documenso/pdf-sign', kind: 'documenso' },
    { name: '@libpdf/core', kind: 'libpdf' },
    { name: '@signpdf/signpdf', kind: 'signpdf' },
  ]
  const rounds = pick(4, 2)
  const rows: Row[] = []
  for (const [id, pages, calls] of [['P3', 1, pick(10, 3)], ['P4', 100, pick(5, 2)]] as const) {
    const pdf = await makePdf({ pages, objectStreams: true })
    const [ours, ...others] = await timeVerifiedSigners(signers, pdf, rounds, calls, issued.p12, issued.password)
    rows.push(...signerRows(id, pages, ours!, others, rounds))
  }
  return rows
}
