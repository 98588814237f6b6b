// PAdES B-T against a TSA nobody here wrote: `openssl ts -reply` behind a local HTTP server.
// Every kind of signature the engine makes (a single signature, a frozen session's certification,
// each session signer) carries an RFC 3161 token over its signature value, which `openssl ts
// -verify` accepts against the TSA's CA; pdfsig, qpdf and mupdf still say the files are sound.
import t, { type Test } from 'tap'
import { freezeDocument, signDocument, signField } from '../../../../plugins/signature/pdf/index.ts'
import { readP12 } from '../../../../plugins/signature/certificates/index.ts'
import { mupdfChangeHistory, pdfsig, qpdfCheck } from '../../../fixtures/pdf/checkers.ts'
import { opensslVerifyToken, opensslView, signatureCmses } from '../../../fixtures/pdf/cms-parts.ts'
import { makePdf } from '../../../fixtures/pdf/make-pdf.ts'
import { makeStampPng } from '../../../fixtures/pdf/stamp-image.ts'
import { opensslEcP12, testUserCertificate } from '../../../fixtures/pdf/test-certificates.ts'
import { startOpensslTsa } from '../../../helpers/openssl-tsa.ts'

const tsa = await startOpensslTsa()
t.teardown(() => tsa.close())
const timestamps = { urls: [tsa.url], timeoutMs: 5_000 }
const image = makeStampPng()
const issued = testUserCertificate('Timestamp App')
const app = readP12(issued.p12, issued.password)

async function assertTimestamped(t: Test, pdf: Uint8Array, count: number) {
  const cmses = signatureCmses(pdf)
  t.equal(cmses.length, count, `${count} signature(s)`)
  for (const [i, cms] of cmses.entries()) {
    const view = await opensslView(cms)
    t.match(view.printed, /object: id-smime-aa-timeStampToken \(1\.2\.840\.113549\.1\.9\.16\.2\.14\)/, `signature ${i + 1}: an unsigned signature-time-stamp-token`)
    t.match(view.printed, /id-smime-aa-signingCertificateV2/, `signature ${i + 1}: ESS signing-certificate-v2`)
    // (The TSA's own SignerInfo, inside the token, may well carry one: only ours is looked at.)
    const ours = view.printed.slice(view.printed.indexOf('signedAttrs:'), view.printed.indexOf('signatureAlgorithm:', view.printed.indexOf('signedAttrs:')))
    t.match(ours, /messageDigest/)
    t.notMatch(ours, /signingTime/, `signature ${i + 1}: no signing-time among our signed attributes`)
    t.ok(view.token, 'the token was found')
    t.match(await opensslVerifyToken(view.token!, view.signatureValue, tsa.caFile), /Verification: OK/, `signature ${i + 1}: openssl ts -verify over its signature value`)
  }
  const report = await pdfsig(pdf)
  t.same(report.signatures.map((s) => s.validation), Array(count).fill('Signature is Valid.'), report.output)
  t.match(report.output, /Signature Type: ETSI\.CAdES\.detached/)
  t.ok((await qpdfCheck(pdf)).clean, 'qpdf --check is clean')
}

t.test('a single signature carries a token openssl verifies', async (t) => {
  const before = tsa.queries.length
  const signed = await signDocument(await makePdf(), { stamps: [{ page: 1, x: 20, y: 20, width: 100, height: 40, image }], signer: app, certify: { p: 2 }, timestamps })
  t.equal(tsa.queries.length - before, 1, 'one query')
  await assertTimestamped(t, signed, 1)
})

t.test('a token over a different message does not verify (the check is not vacuous)', async (t) => {
  const signed = await signDocument(await makePdf(), { stamps: [], signer: app, timestamps })
  const view = await opensslView(signatureCmses(signed)[0]!)
  const other = Buffer.from(view.signatureValue)
  other[0] = other[0]! ^ 1
  await t.rejects(opensslVerifyToken(view.token!, other, tsa.caFile), /message imprint mismatch|Verification: FAILED/)
})

t.test('a session: the certification and each signer are timestamped, every signature stays valid, mupdf sees no forbidden change', async (t) => {
  const frozen = await freezeDocument(await makePdf({ pages: 2 }), {
    signer: app, timestamps,
    fields: [{ name: 'first', page: 1, x: 50, y: 50, width: 120, height: 40 }, { name: 'second', page: 2, x: 50, y: 50, width: 120, height: 40 }],
  })
  const one = await signField(frozen, { fieldName: 'first', image, signer: testUserCertificate('Signer One'), timestamps })
  const two = await signField(one, { fieldName: 'second', image, signer: testUserCertificate('Signer Two'), timestamps })
  t.ok(Buffer.from(two).subarray(0, one.length).equals(Buffer.from(one)), 'each revision is a prefix of the next')
  await assertTimestamped(t, two, 3)
  t.equal((await mupdfChangeHistory(two)).verdict, 0)
})

t.test('an ECDSA P-256 signer with an ECDSA TSA: both signatures verify', async (t) => {
  const ecTsa = await startOpensslTsa({ keyType: 'ec' })
  t.teardown(() => ecTsa.close())
  const { p12 } = await opensslEcP12('pw', 'EC Timestamped')
  const signed = await signDocument(await makePdf(), { stamps: [], signer: { p12, password: 'pw' }, timestamps: { urls: [ecTsa.url] } })
  const view = await opensslView(signatureCmses(signed)[0]!)
  t.match(await opensslVerifyToken(view.token!, view.signatureValue, ecTsa.caFile), /Verification: OK/)
  t.equal((await pdfsig(signed)).signatures[0]?.validation, 'Signature is Valid.')
})

t.test('a token bigger than the room reserved: one more round at the size it needed, and the file is sound', async (t) => {
  const big = await startOpensslTsa()
  t.teardown(() => big.close())
  const source = { urls: [big.url] }
  await signDocument(await makePdf(), { stamps: [], signer: app, timestamps: source }) // learns this TSA's token size
  // Now each token carries many more certificates than the size learnt.
  const pem = await (await import('node:fs/promises')).readFile(`${big.dir}/tsa.pem`, 'utf8')
  await big.setExtraCertificates(Array(8).fill(pem))
  const before = big.queries.length
  const signed = await signDocument(await makePdf(), { stamps: [], signer: app, timestamps: source })
  t.equal(big.queries.length - before, 2, 'asked twice: the first token did not fit')
  const view = await opensslView(signatureCmses(signed)[0]!)
  t.ok(view.token!.length > 8 * 700, `token of ${view.token!.length} bytes`)
  t.match(await opensslVerifyToken(view.token!, view.signatureValue, big.caFile), /Verification: OK/)
  t.equal((await pdfsig(signed)).signatures[0]?.validation, 'Signature is Valid.')
})
