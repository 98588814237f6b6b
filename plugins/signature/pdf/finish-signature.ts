// The last step of every signature the engine makes: write the document with room for the CMS,
// sign the bytes around that room, timestamp the signature value (B-T) when a source is
// configured, and fill the room. The room is sized from the real certificate chain plus the
// token this source's TSAs last answered with; a token that turns out bigger costs one more
// round at the size it needed (a new digest, so a new signature and a new token).
import { createHash } from 'node:crypto'
import type { PDFContext, PDFRef } from 'pdf-lib'
import type { SigningIdentity } from '../certificates/read-p12.ts'
import { requestTimestamp, transportsFor } from '../timestamps/request-timestamp.ts'
import type { TimestampSource } from '../timestamps/timestamp-source.ts'
import { pdfLimits } from './pdf-limits.ts'
import { assembleCms, cmsSize, signAttributes, timestampAttributeOverhead } from './pkcs7-signer.ts'
import { insertSignature, prepareSignature, setContentsPlaceholder } from './signature-placeholder.ts'

/** Slack for the last bytes a DER length or an ECDSA signature may vary by. */
const SLACK = 64
/** What a TSA's next token may exceed its last one by (serial, nonce and signature lengths vary). */
const TOKEN_HEADROOM = 512
/** Before a source has answered once: room for a token with a TSA certificate and a short chain. */
const FIRST_TOKEN_ESTIMATE = 6 * 1024
/** Largest token seen per source in this thread. */
const tokenSizes = new Map<string, number>()

export interface FinishSignatureOptions {
  context: PDFContext
  /** The signature dictionary (build-signature-dictionary.ts) whose /Contents is filled. */
  signature: PDFRef
  identity: SigningIdentity
  timestamps: TimestampSource | null
  /** Serializes the document as it now is (a full save, or the incremental update appended). */
  write: () => Promise<Uint8Array> | Uint8Array
}

export async function finishSignature(options: FinishSignatureOptions): Promise<Buffer> {
  const { identity, timestamps } = options
  const transports = timestamps ? transportsFor(timestamps) : null
  const sourceKey = timestamps?.urls.join(' ') ?? ''
  // The worker's task is stopped at its time limit; the TSAs must answer well before.
  const deadline = Date.now() + Math.max(1_000, pdfLimits().taskTimeoutMs - 2_000)
  const expectedToken = tokenSizes.get(sourceKey) ?? FIRST_TOKEN_ESTIMATE
  let room = cmsSize(identity) + SLACK + (transports ? expectedToken + TOKEN_HEADROOM + timestampAttributeOverhead(expectedToken + TOKEN_HEADROOM) : 0)
  for (let round = 1; ; round++) {
    setContentsPlaceholder(options.context, options.signature, room)
    const prepared = prepareSignature(await options.write())
    const [head, tail] = prepared.signedRanges
    const attributes = signAttributes(createHash('sha256').update(head).update(tail).digest(), identity)
    const token = transports ? (await requestTimestamp(attributes.signature, transports, deadline)).token : undefined
    if (token) tokenSizes.set(sourceKey, Math.max(token.length, tokenSizes.get(sourceKey) ?? 0))
    const cms = assembleCms(identity, attributes, token)
    if (cms.length <= prepared.capacity) return insertSignature(prepared, cms)
    if (round === 2) throw new Error(`The timestamped signature (${cms.length} bytes) outgrew its room (${prepared.capacity} bytes) twice`)
    room = cms.length + TOKEN_HEADROOM
  }
}

/** What a full rewrite's trailer /ID is derived from: the source, the signer and the claimed time. */
export function versionSeed(source: Uint8Array, identity: SigningIdentity, signingTime: Date): Buffer {
  return createHash('sha256').update(source).update(identity.certificates[0] ?? '').update(signingTime.toISOString()).digest()
}
