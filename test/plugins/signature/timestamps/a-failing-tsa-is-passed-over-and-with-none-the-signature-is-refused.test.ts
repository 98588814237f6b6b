// Fail closed: a TSA that is down, silent, or answers anything but a valid token for this very
// query is passed over; when none is left the signature is refused with 503
// ERR_TIMESTAMP_UNAVAILABLE (never made without its timestamp). The TSAs are real: openssl ts
// -reply behind HTTP, misbehaving on purpose, and a port where nothing listens.
import t from 'tap'
import { readP12 } from '../../../../plugins/signature/certificates/index.ts'
import { signDocument, signField, freezeDocument } from '../../../../plugins/signature/pdf/index.ts'
import { requestTimestamp, transportsFor } from '../../../../plugins/signature/timestamps/request-timestamp.ts'
import { opensslVerifyToken, opensslView, signatureCmses } from '../../../fixtures/pdf/cms-parts.ts'
import { pdfsig } from '../../../fixtures/pdf/checkers.ts'
import { makePdf } from '../../../fixtures/pdf/make-pdf.ts'
import { makeStampPng } from '../../../fixtures/pdf/stamp-image.ts'
import { testUserCertificate } from '../../../fixtures/pdf/test-certificates.ts'
import { closedPortUrl, startOpensslTsa, type TsaBehaviour } from '../../../helpers/openssl-tsa.ts'

const tsa = await startOpensslTsa()
t.teardown(() => tsa.close())
const issued = testUserCertificate('Fail Closed')
const signer = readP12(issued.p12, issued.password)
const pdf = await makePdf()
const unavailable = { code: 'ERR_TIMESTAMP_UNAVAILABLE', statusCode: 503 }

async function failures(urls: string[], timeoutMs = 5_000): Promise<string[]> {
  try {
    await requestTimestamp(Buffer.from('a signature value'), transportsFor({ urls, timeoutMs }))
  } catch (error) {
    return ((error as { details?: { failures?: string[] } }).details?.failures) ?? [String(error)]
  }
  return []
}

t.test('a TSA that is down (closed port): 503 ERR_TIMESTAMP_UNAVAILABLE, no signature', async (t) => {
  const down = await closedPortUrl()
  await t.rejects(signDocument(pdf, { stamps: [], signer, timestamps: { urls: [down] } }), unavailable)
  t.match((await failures([down]))[0], /ECONNREFUSED/)
})

const wrongAnswers: Array<[TsaBehaviour, RegExp]> = [
  ['garbage', /DER|Expected|Truncated/],
  ['wrong-nonce', /another nonce/],
  ['wrong-imprint', /another message imprint/],
  ['rejection', /refused the request \(status 2/],
  ['http-500', /HTTP 500/],
]
for (const [behaviour, reason] of wrongAnswers) {
  t.test(`a TSA answering ${behaviour}: refused, naming why`, async (t) => {
    tsa.behaviour = behaviour
    t.teardown(() => { tsa.behaviour = 'ok' })
    await t.rejects(signDocument(pdf, { stamps: [], signer, timestamps: { urls: [tsa.url] } }), unavailable)
    t.match((await failures([tsa.url]))[0], reason)
  })
}

t.test('a TSA that never answers: refused once its timeout passes', async (t) => {
  tsa.behaviour = 'silent'
  t.teardown(() => { tsa.behaviour = 'ok' })
  const start = Date.now()
  await t.rejects(signDocument(pdf, { stamps: [], signer, timestamps: { urls: [tsa.url], timeoutMs: 300 } }), unavailable)
  t.ok(Date.now() - start < 3_000, `gave up after ${Date.now() - start} ms`)
})

t.test('the list is tried in order: the first down, the second answers → signed with its token', async (t) => {
  const down = await closedPortUrl()
  const liar = await startOpensslTsa({ behaviour: 'wrong-nonce' })
  t.teardown(() => liar.close())
  const before = tsa.queries.length
  const signed = await signDocument(pdf, { stamps: [], signer, timestamps: { urls: [down, liar.url, tsa.url] } })
  t.equal(liar.queries.length, 1, 'the second was asked and its answer refused')
  t.equal(tsa.queries.length - before, 1, 'the third gave the token')
  const view = await opensslView(signatureCmses(signed)[0]!)
  t.match(await opensslVerifyToken(view.token!, view.signatureValue, tsa.caFile), /Verification: OK/)
  t.equal((await pdfsig(signed)).signatures[0]?.validation, 'Signature is Valid.')
})

t.test('a session signer is refused the same way, and the freeze too', async (t) => {
  const down = await closedPortUrl()
  const fields = [{ name: 'only', page: 1, x: 40, y: 40, width: 100, height: 40 }]
  await t.rejects(freezeDocument(pdf, { fields, signer, timestamps: { urls: [down] } }), unavailable)
  const frozen = await freezeDocument(pdf, { fields, signer, timestamps: null })
  await t.rejects(signField(frozen, { fieldName: 'only', image: makeStampPng(), signer, timestamps: { urls: [down] } }), unavailable)
})

t.test('an answer larger than the cap is refused without being read to the end', async (t) => {
  const before = tsa.queries.length
  await t.rejects(signDocument(pdf, { stamps: [], signer, timestamps: { urls: [tsa.url], maxResponseBytes: 512 } }), unavailable)
  t.equal(tsa.queries.length - before, 1)
  try {
    await requestTimestamp(Buffer.from('x'), transportsFor({ urls: [tsa.url], maxResponseBytes: 512 }))
    t.fail('should have been refused')
  } catch (error) {
    t.match((error as { details: { failures: string[] } }).details.failures[0], /larger than 512 bytes/)
  }
})

t.test('a real token altered on the way: its signature or its message digest no longer holds, and it is refused', async (t) => {
  const { createTimestampQuery } = await import('../../../../plugins/signature/timestamps/timestamp-query.ts')
  const { readTimestampReply } = await import('../../../../plugins/signature/timestamps/timestamp-reply.ts')
  const { createHash } = await import('node:crypto')
  const query = createTimestampQuery(createHash('sha256').update('altered').digest())
  const reply = await transportsFor({ urls: [tsa.url] })[0]!.send(query.der)
  t.ok(readTimestampReply(reply, query).genTime instanceof Date, 'the untouched reply passes')
  const badSignature = Buffer.from(reply)
  badSignature[badSignature.length - 1] = badSignature[badSignature.length - 1]! ^ 1 // the TSA's RSA signature ends the reply
  t.throws(() => readTimestampReply(badSignature, query), /signature does not verify/)
  const badContent = Buffer.from(reply)
  const policy = badContent.indexOf(Buffer.from('06042a030401', 'hex')) // TSTInfo's policy 1.2.3.4.1 (ts.cnf)
  t.ok(policy > 0)
  badContent[policy + 5] = 2
  t.throws(() => readTimestampReply(badContent, query), /message digest does not match/)
})
