// Fuzzing the verifier: a signed session document (certification + a signer) with bytes flipped,
// truncated, or its signature value, /ByteRange and DER garbled, goes through POST /api/verify.
// The answer is a report or a 4xx, never a 500; a report never calls a damaged signature valid
// when its /ByteRange was changed. Fixed seed: a failure replays the same way.
import fc from 'fast-check'
import t from 'tap'
import { freezeDocument, signField } from '../../../../plugins/signature/pdf/index.ts'
import { makePdf } from '../../../fixtures/pdf/make-pdf.ts'
import { makeStampPng } from '../../../fixtures/pdf/stamp-image.ts'
import { testUserCertificate } from '../../../fixtures/pdf/test-certificates.ts'

// Every request comes from one address: lift the per-address limit (its own test is below).
process.env.SIGNATURE_VERIFY_RATE_PER_MINUTE = '10000'
const { buildTestApp } = await import('../../../helpers/app.ts')

let base = Buffer.from(await freezeDocument(await makePdf(), { fields: [{ name: 'a', page: 1, x: 40, y: 60, width: 200, height: 80 }], signer: testUserCertificate('App') }))
base = Buffer.from(await signField(base, { fieldName: 'a', image: makeStampPng(), signer: testUserCertificate('Alice') }))
const text = base.toString('latin1')
const contentsAt = [...text.matchAll(/\/Contents\s*<([0-9a-f]{100})/gi)].map((m) => m.index! + m[0].indexOf('<') + 1)
const byteRangeAt = [...text.matchAll(/\/ByteRange\s*\[/g)].map((m) => m.index! + m[0].length)

const mutation = fc.oneof(
  fc.record({ kind: fc.constant('flip' as const), flips: fc.array(fc.tuple(fc.double({ min: 0, max: 1, noNaN: true }), fc.integer({ min: 0, max: 255 })), { minLength: 1, maxLength: 8 }) }),
  fc.record({ kind: fc.constant('truncate' as const), at: fc.double({ min: 0.5, max: 1, noNaN: true }) }),
  // Inside a signature's DER (hex digits): a different length byte, tag or content.
  fc.record({ kind: fc.constant('der' as const), which: fc.nat(1), offset: fc.nat(60), digit: fc.constantFrom(...'0123456789abcdef') }),
  fc.record({ kind: fc.constant('byte-range' as const), which: fc.nat(1), value: fc.constantFrom('0 1 2 3', '-1 5 9 9', '0 99999999999 0 0', '0 0 0 0', '1e308 0 0 0', '/A /B /C /D') }),
)

// eslint-disable-next-line @typescript-eslint/no-explicit-any
function mutate(m: any): Buffer {
  const copy = Buffer.from(base)
  if (m.kind === 'flip') for (const [at, value] of m.flips) copy[Math.floor(at * (copy.length - 1))] = value
  if (m.kind === 'truncate') return copy.subarray(0, Math.floor(m.at * copy.length))
  if (m.kind === 'der') copy.write(m.digit, contentsAt[m.which % contentsAt.length]! + m.offset, 'latin1')
  if (m.kind === 'byte-range') {
    const at = byteRangeAt[m.which % byteRangeAt.length]!
    const end = copy.indexOf(']', at)
    const replacement = m.value.padEnd(end - at, ' ').slice(0, end - at)
    copy.write(replacement, at, 'latin1')
  }
  return copy
}

t.test('mutated signed PDFs through /api/verify: a report or a 4xx, never a 500', async (t) => {
  const app = await buildTestApp(t)
  const seen = new Map<number, number>()
  await fc.assert(fc.asyncProperty(mutation, async (m) => {
    const pdf = mutate(m)
    const res = await app.inject({ method: 'POST', url: '/api/verify', headers: { 'content-type': 'application/pdf' }, payload: pdf })
    seen.set(res.statusCode, (seen.get(res.statusCode) ?? 0) + 1)
    if (res.statusCode >= 500 || ![200, 413, 422].includes(res.statusCode)) throw new Error(`${res.statusCode} for ${JSON.stringify(m)}: ${res.body.slice(0, 300)}`)
    // (A garbled DER byte may fall in a part no signature covers, such as SignedData's digestAlgorithms
    // set, so only a changed /ByteRange is sure to break its signature.)
    if (res.statusCode === 200 && m.kind === 'byte-range') {
      const damaged = res.json().signatures.filter((s: { integrity: string }) => s.integrity === 'valid').length
      // The mutated signature (one of two) can no longer be intact.
      if (damaged > 1) throw new Error(`a garbled signature was called intact: ${JSON.stringify(m)}`)
    }
  }), { seed: 19_2026, numRuns: 60, interruptAfterTimeLimit: 20_000, markInterruptAsFailure: false, endOnFailure: true })
  t.ok([...seen.values()].reduce((a, b) => a + b, 0) >= 10, `answers by status: ${JSON.stringify(Object.fromEntries(seen))}`)
  const good = await app.inject({ method: 'POST', url: '/api/verify', headers: { 'content-type': 'application/pdf' }, payload: base })
  // (A test CA, not the app's: intact but untrusted.)
  t.same(good.json().signatures.map((s: { integrity: string }) => s.integrity), ['valid', 'valid'], 'the server still verifies afterwards')
})
