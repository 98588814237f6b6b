// Rows P3a/P3b: one signature by our engine (visible stamp + PKCS#7 + DocMDP certification)
// against the signers people use — Documenso's (@documenso/pdf-sign), @libpdf/core and @signpdf —
// on the same 1- and 100-page inputs with the same key. Each output is checked by pdfsig before
// anything is timed: a signer whose file doesn't verify gets a row saying so and no time.
// Rounds alternate the order (forward, then reversed) so drift in the machine's load falls on all.
// Besides the wall time (the bar), each signature's CPU time (this process, every thread): on a
// machine shared with other work it moves less than the wall time, which includes waiting for a core.
import { performance } from 'node:perf_hooks'
import { createCertificateAuthority, issueUserCertificate, readP12 } from '../../plugins/signature/certificates/index.ts'
import { signDocument } from '../../plugins/signature/pdf/index.ts'
import { makePdf } from '../../test/fixtures/pdf/make-pdf.ts'
import { makeStampPng } from '../../test/fixtures/pdf/stamp-image.ts'
import { importPeer } from '../lib/peers.ts'
import { median, ms, pick, x, type Row } from '../lib/rows.ts'
import { verifiedOutput, type Verdict } from '../lib/verified-output.ts'

type Sign = (pdf: Uint8Array) => Promise<Uint8Array>
interface PeerSigners {
  documenso(p12: Uint8Array, password: string): Sign
  libpdf(p12: Uint8Array, password: string): Promise<Sign>
  signpdf(p12: Uint8Array, password: string): Sign
}

export interface Signer { name: string; sign: Sign }
/** times: wall ms per signature; cpu: this process's CPU ms (every thread) per signature. */
export interface Timed { name: string; verdict: Verdict; times: number[]; cpu: number[] }

/**
 * Checks every signer's output with pdfsig, then times the ones that passed in alternating
 * rounds (`calls` signatures each per round, after one warm-up call). A signer that throws or
 * whose output fails is returned with its verdict and no times.
 */
export async function timeVerifiedSigners(signers: Signer[], pdf: Uint8Array, rounds: number, calls: number): Promise<Timed[]> {
  const results: Timed[] = []
  for (const signer of signers) {
    let verdict: Verdict
    try {
      verdict = verifiedOutput(await signer.sign(pdf))
    } catch (error) {
      verdict = { valid: false, verdicts: [`threw: ${(error as Error).message}`] }
    }
    results.push({ name: signer.name, verdict, times: [], cpu: [] })
  }
  const valid = signers.filter((_, i) => results[i]!.verdict.valid)
  for (let round = 0; round < rounds; round++) {
    const order = round % 2 ? [...valid].reverse() : valid
    for (const signer of order) {
      const { times, cpu } = results.find((r) => r.name === signer.name)!
      await signer.sign(pdf)
      for (let i = 0; i < calls; i++) {
        const usage = process.cpuUsage()
        const start = performance.now()
        await signer.sign(pdf)
        times.push(performance.now() - start)
        const used = process.cpuUsage(usage)
        cpu.push((used.user + used.system) / 1000)
      }
    }
  }
  return results
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
  const peers = await importPeer<PeerSigners>('signers.mjs')
  const ca = createCertificateAuthority({ commonName: 'Bench CA' })
  const issued = issueUserCertificate(ca, { name: 'Bench Signer', email: 'signer@example.org' })
  const identity = readP12(issued.p12, issued.password)
  const image = makeStampPng()
  const signers: Signer[] = [
    { name: 'ours', sign: (pdf) => signDocument(pdf, { stamps: [{ page: 1, x: 400, y: 60, width: 200, height: 80, image }], signer: identity, certify: {} }) },
    { name: 'Documenso @documenso/pdf-sign', sign: peers.documenso(issued.p12, issued.password) },
    { name: '@libpdf/core', sign: await peers.libpdf(issued.p12, issued.password) },
    { name: '@signpdf/signpdf', sign: peers.signpdf(issued.p12, issued.password) },
  ]
  const rounds = pick(4, 2)
  const rows: Row[] = []
  for (const [id, pages, calls] of [['P3', 1, pick(10, 3)], ['P4', 100, pick(5, 2)]] as const) {
    const pdf = await makePdf({ pages, objectStreams: true })
    const [ours, ...others] = await timeVerifiedSigners(signers, pdf, rounds, calls)
    rows.push(...signerRows(id, pages, ours!, others, rounds))
  }
  return rows
}
