// One signer of rows P3/P4 in a process of its own (forked by bench/sections/peer-signers.ts), so
// that its CPU time is its own: in one shared process a peer's garbage collection was billed to
// whichever signer ran next (ours measured 12.2 ms of CPU for a signature that costs 4.7-5.2 ms
// alone). Messages: { pdf } -> { verdict }; { calls } -> { times, cpu } (ms per signature after one
// warm-up call); the parent alternates the order of the processes between rounds.
import { performance } from 'node:perf_hooks'
import { readP12 } from '../../plugins/signature/certificates/index.ts'
import { signDocument } from '../../plugins/signature/pdf/index.ts'
import { makeStampPng } from '../../test/fixtures/pdf/stamp-image.ts'
import { importPeer } from './peers.ts'
import { verifiedOutput, type Verdict } from './verified-output.ts'

type Sign = (pdf: Uint8Array) => Promise<Uint8Array>
interface PeerSigners {
  documenso(p12: Uint8Array, password: string): Sign
  libpdf(p12: Uint8Array, password: string): Promise<Sign>
  signpdf(p12: Uint8Array, password: string): Sign
}
// 'tampered' and 'throws' are for test/bench/peers-are-pinned-and-verified.test.ts: signers whose
// output fails pdfsig, which must be reported as such and never timed.
export type SignerKind = 'ours' | keyof PeerSigners | 'tampered' | 'throws'
export type SignerMessage = { pdf: Uint8Array } | { calls: number } | { exit: true }
export type SignerReply = { verdict: Verdict } | { times: number[]; cpu: number[] }

const { kind, p12: p12Base64, password } = JSON.parse(process.argv[2]!) as { kind: SignerKind; p12: string; password: string }
const p12 = Buffer.from(p12Base64, 'base64')

async function signerOf(): Promise<Sign> {
  if (kind === 'ours' || kind === 'tampered') {
    const identity = readP12(p12, password)
    const image = makeStampPng()
    const ours: Sign = (pdf) => signDocument(pdf, { stamps: [{ page: 1, x: 400, y: 60, width: 200, height: 80, image }], signer: identity, certify: {} })
    return kind === 'ours' ? ours : async (pdf) => tamper(await ours(pdf))
  }
  if (kind === 'throws') return async () => { throw new Error('no key') }
  const peers = await importPeer<PeerSigners>('signers.mjs')
  return await peers[kind](p12, password)
}

/** A signature over bytes that then change: the PDF still opens, the digest no longer matches. */
function tamper(signedBytes: Uint8Array): Uint8Array {
  const signed = Buffer.from(signedBytes)
  const at = signed.indexOf('/Producer')
  if (!(at > 0 && at < signed.indexOf('/ByteRange'))) throw new Error('the byte to change is not in the signed range')
  signed[at + 2] = signed[at + 2] === 0x72 ? 0x52 : 0x72
  return signed
}

const sign = await signerOf()
let pdf: Uint8Array | undefined
const reply = (message: SignerReply) => process.send!(message)

process.on('message', async (message: SignerMessage) => {
  if ('exit' in message) return process.disconnect()
  if ('pdf' in message) {
    pdf = message.pdf
    try {
      return reply({ verdict: verifiedOutput(await sign(pdf)) })
    } catch (error) {
      return reply({ verdict: { valid: false, verdicts: [`threw: ${(error as Error).message}`] } })
    }
  }
  const times: number[] = []
  const cpu: number[] = []
  await sign(pdf!)
  for (let i = 0; i < message.calls; i++) {
    const usage = process.cpuUsage()
    const start = performance.now()
    await sign(pdf!)
    times.push(performance.now() - start)
    const used = process.cpuUsage(usage)
    cpu.push((used.user + used.system) / 1000)
  }
  reply({ times, cpu })
})
process.send!({ ready: true })
