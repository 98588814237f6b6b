// The TSA and OCSP read DER from anyone: random bytes, and valid requests with bytes flipped,
// cut or appended, always get a protocol answer (a rejection, malformedRequest, or a proper
// response) and never an exception or a hang.
import { execFileSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import fc from 'fast-check'
import t from 'tap'
import { loadCertificateAuthority, serializeCertificateAuthority } from '../../../../plugins/signature/certificates/index.ts'
import { issueTimestampAuthority, openTimestampAuthority } from '../../../../plugins/signature/pki/app-timestamp-authority.ts'
import { parseOcspRequest, OcspRequestError } from '../../../../plugins/signature/pki/parse-ocsp-request.ts'
import { respondToTimestampQuery } from '../../../../plugins/signature/pki/respond-to-timestamp-query.ts'
import { kids, parseNode, smallIntegerOf } from '../../../../plugins/signature/pdf/read-der.ts'
import { testCertificateAuthority } from '../../../fixtures/pdf/test-certificates.ts'

const ca = serializeCertificateAuthority(testCertificateAuthority())
const authority = openTimestampAuthority(issueTimestampAuthority(loadCertificateAuthority(ca)), ca)

const dir = mkdtempSync(path.join(tmpdir(), 'pki-fuzz-'))
t.teardown(() => rmSync(dir, { recursive: true, force: true }))
writeFileSync(path.join(dir, 'data'), 'x')
writeFileSync(path.join(dir, 'ca.pem'), ca.certPem)
execFileSync('openssl', ['ts', '-query', '-data', 'data', '-sha256', '-cert', '-out', 'q'], { cwd: dir })
execFileSync('openssl', ['ocsp', '-issuer', 'ca.pem', '-serial', '0x0102', '-serial', '0x7f', '-reqout', 'o'], { cwd: dir })
const query = readFileSync(path.join(dir, 'q'))
const ocsp = readFileSync(path.join(dir, 'o'))

/** A valid request damaged one of three ways. */
const damaged = (valid: Buffer) => fc.oneof(
  fc.tuple(fc.nat(valid.length - 1), fc.integer({ min: 1, max: 255 })).map(([at, xor]) => { const b = Buffer.from(valid); b[at]! ^= xor; return b }),
  fc.nat(valid.length - 1).map((n) => valid.subarray(0, n)),
  fc.uint8Array({ minLength: 1, maxLength: 16 }).map((tail) => Buffer.concat([valid, tail])),
)
const anyBytes = fc.uint8Array({ maxLength: 300 }).map((a) => Buffer.from(a))

/** The outer structure of a TimeStampResp: a SEQUENCE whose first element is PKIStatusInfo with status 0 or 2. */
function statusOf(response: Buffer): number {
  const outer = parseNode(response)
  if (outer.tag !== 0x30 || outer.end !== response.length) throw new Error('not one SEQUENCE')
  return smallIntegerOf(kids(kids(outer)[0]!)[0])
}

t.test('the TSA answers every input with granted or rejection', async (t) => {
  t.equal(statusOf(respondToTimestampQuery(query, authority, new Date())), 0, 'the valid query is granted')
  let granted = 0
  fc.assert(fc.property(fc.oneof(anyBytes, damaged(query)), (bytes) => {
    const status = statusOf(respondToTimestampQuery(bytes, authority, new Date()))
    if (status === 0) granted++
    return status === 0 || status === 2
  }), { numRuns: 400 })
  t.pass(`400 inputs answered (${granted} of them still a valid query, e.g. a flipped imprint byte)`)
})

t.test('the OCSP reader reads a valid request and refuses the rest with its own error', async (t) => {
  const parsed = parseOcspRequest(ocsp)
  t.same(parsed.certIds.map((c) => c.serial), ['0102', '7f'])
  t.ok(parsed.nonceExtensionDer, 'openssl sends a nonce')
  fc.assert(fc.property(fc.oneof(anyBytes, damaged(ocsp)), (bytes) => {
    try {
      parseOcspRequest(bytes)
      return true
    } catch (error) {
      return error instanceof OcspRequestError
    }
  }), { numRuns: 400 })
  t.pass('400 inputs read or refused')
})
