// /pki reads DER from anyone. A request nested thousands of levels deep is refused as any
// unreadable request is, with the protocol's stable answer (TSA: rejection with failInfo
// badRequest; OCSP: malformedRequest), and the refusal names the nesting: the parsers hand the
// bytes to read-der.ts, under its depth limit, before reading any field.
import { writeFile } from 'node:fs/promises'
import t from 'tap'
import { integer, nullValue, octetString, oid, sequence, tlv } from '../../../../plugins/signature/pdf/der.ts'
import { parseOcspRequest, OcspRequestError } from '../../../../plugins/signature/pki/parse-ocsp-request.ts'
import { parseTimestampQuery, TimestampQueryError } from '../../../../plugins/signature/pki/parse-timestamp-query.ts'
import { buildSignatureApp } from '../../../helpers/signature-app.ts'
import { opensslFolder } from './openssl-tools.ts'

/** `depth` SEQUENCEs around `innermost`, headers written once (tlv() per level copies 400 MB). */
function nested(depth: number, innermost: Buffer): Buffer {
  const headers: Buffer[] = []
  let length = innermost.length
  for (let level = 0; level < depth; level++) {
    const header = length < 0x80 ? Buffer.from([0x30, length]) : length < 0x100 ? Buffer.from([0x30, 0x81, length]) : Buffer.from([0x30, 0x82, length >> 8, length & 0xff])
    headers.push(header)
    length += header.length
  }
  return Buffer.concat([...headers.reverse(), innermost])
}

const sha256 = oid('2.16.840.1.101.3.4.2.1')
/** A TimeStampReq whose imprint algorithm parameters are `parameters`. */
const query = (parameters: Buffer) => sequence(integer(1), sequence(sequence(sha256, parameters), octetString(Buffer.alloc(32, 7))))
/** An OCSPRequest for one serial whose request extensions hold `extension`. */
const ocspRequest = (extension: Buffer) => sequence(sequence(
  sequence(sequence(sequence(sequence(oid('1.3.14.3.2.26'), nullValue()), octetString(Buffer.alloc(20)), octetString(Buffer.alloc(20)), integer(5)))),
  tlv(0xa2, sequence(extension)),
))

t.test('10,000 levels: the TSA query parser says badRequest, the OCSP parser refuses, both naming the nesting', async (t) => {
  t.same(parseTimestampQuery(query(nullValue())).algorithm, '2.16.840.1.101.3.4.2.1', 'control: the same query, not nested, reads')
  t.throws(() => parseTimestampQuery(query(nested(10_000, nullValue()))), new TimestampQueryError('badRequest', 'not a DER TimeStampReq (ASN.1 nested too deep)'))
  t.same(parseOcspRequest(ocspRequest(sequence(oid('1.3.6.1.5.5.7.48.1.2'), octetString(octetString(Buffer.alloc(16)))))).certIds.length, 1, 'control: the same request, not nested, reads')
  const refusal = (() => { try { parseOcspRequest(ocspRequest(nested(10_000, nullValue()))) } catch (error) { return error } })()
  t.ok(refusal instanceof OcspRequestError, 'the parser\'s own error, answered as malformedRequest')
  t.match((refusal as Error).message, /nested too deep/)
})

t.test('over HTTP, as deep as the body limits allow: rejection badRequest and malformedRequest', async (t) => {
  const app = await buildSignatureApp(t)
  const { file, openssl } = await opensslFolder(t)
  const post = (url: string, type: string, payload: Buffer) => app.inject({ method: 'POST', url, headers: { 'content-type': type }, payload })

  const tsaBody = query(nested(1_000, nullValue()))
  t.ok(tsaBody.length <= 4096, `${tsaBody.length} bytes, under the TSA's body limit`)
  const tsa = await post('/pki/tsa', 'application/timestamp-query', tsaBody)
  t.equal(tsa.statusCode, 200)
  await writeFile(file('tsa.tsr'), tsa.rawPayload)
  const reply = (await openssl('ts', '-reply', '-in', 'tsa.tsr', '-text')).output
  t.match(reply, /Status: Rejected/)
  t.match(reply, /Failure info: transaction not permitted or supported/, 'badRequest (bit 2), in openssl\'s words')
  t.match(reply, /nested too deep/)

  const ocspBody = ocspRequest(nested(4_000, nullValue()))
  t.ok(ocspBody.length <= 16 * 1024, `${ocspBody.length} bytes, under the OCSP body limit`)
  const ocsp = await post('/pki/ocsp', 'application/ocsp-request', ocspBody)
  t.equal(ocsp.statusCode, 200)
  await writeFile(file('ocsp.der'), ocsp.rawPayload)
  t.match((await openssl('ocsp', '-respin', 'ocsp.der', '-resp_text', '-noverify')).output, /malformedrequest/i)
})
