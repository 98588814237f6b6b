// /Contents is reserved from the real chain: never too small (the signature must fit) and not a
// blind 8192 bytes either.
import { createHash, generateKeyPairSync } from 'node:crypto'
import t from 'tap'
import { readP12 } from '../../../../plugins/signature/certificates/index.ts'
import { cmsSize, createDetachedCms } from '../../../../plugins/signature/pdf/pkcs7-signer.ts'
import { signDocument } from '../../../../plugins/signature/pdf/index.ts'
import { pdfsig } from '../../../fixtures/pdf/checkers.ts'
import { makePdf } from '../../../fixtures/pdf/make-pdf.ts'
import { makeStampPng } from '../../../fixtures/pdf/stamp-image.ts'
import { testUserCertificate } from '../../../fixtures/pdf/test-certificates.ts'

const issued = testUserCertificate('Sizing')
const identity = readP12(issued.p12, issued.password)

function reservedBytes(pdf: Uint8Array): number {
  const hex = /\/Contents <([0-9a-f]+)>/.exec(Buffer.from(pdf).toString('latin1'))![1]!
  return hex.length / 2
}

function usedBytes(pdf: Uint8Array): number {
  const hex = /\/Contents <([0-9a-f]+)>/.exec(Buffer.from(pdf).toString('latin1'))![1]!
  // The CMS is one DER SEQUENCE with a two-byte length (30 82 hi lo); the rest is zero padding.
  t.equal(hex.slice(0, 4), '3082')
  return 4 + parseInt(hex.slice(4, 8), 16)
}

t.test('the predicted size is the size of a real CMS for that key (no signing time varies it any more)', async (t) => {
  const digest = createHash('sha256').update('x').digest()
  t.equal(cmsSize(identity), createDetachedCms(digest, identity).length)
})

t.test('the reservation follows the chain: a longer chain reserves more', async (t) => {
  const stamps = [{ page: 1, x: 10, y: 10, width: 50, height: 20, image: makeStampPng() }]
  const short = await signDocument(await makePdf(), { stamps, signer: { ...identity, certificates: identity.certificates.slice(0, 1) } })
  const long = await signDocument(await makePdf(), { stamps, signer: identity })
  const caSize = identity.certificates[1]!.length
  t.equal(reservedBytes(long) - reservedBytes(short), caSize, 'the CA certificate adds exactly its own size')
  t.ok(reservedBytes(long) < 8192, `reserved ${reservedBytes(long)} bytes`)
  t.ok(reservedBytes(long) - usedBytes(long) <= 128, 'little slack')
  for (const pdf of [short, long]) t.equal((await pdfsig(pdf)).signatures[0]?.validation, 'Signature is Valid.')
})

t.test('a 4096-bit RSA key gets a larger reservation and still validates', async (t) => {
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 4096 })
  // The certificate does not match this key, so pdfsig would reject it; only the sizing is checked.
  const big = { ...identity, privateKey }
  t.equal(cmsSize(big) - cmsSize(identity), 256, '256 more signature bytes')
})
