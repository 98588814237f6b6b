// The CMS built by pkcs7-signer.ts, checked by OpenSSL outside any PDF reader.
import { execFile } from 'node:child_process'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import t from 'tap'
import { signDocument } from '../../../../plugins/signature/pdf/index.ts'
import { makePdf } from '../../../fixtures/pdf/make-pdf.ts'
import { makeStampPng } from '../../../fixtures/pdf/stamp-image.ts'
import { testCertificateAuthority, testUserCertificate } from '../../../fixtures/pdf/test-certificates.ts'

const run = promisify(execFile)
// Whole seconds, and not before the certificate's validity (validity is judged at signing time).
const signingTime = new Date(Math.floor(Date.now() / 1000) * 1000)
const signed = Buffer.from(
  await signDocument(await makePdf(), {
    stamps: [{ page: 1, x: 10, y: 10, width: 60, height: 20, image: makeStampPng() }],
    signer: testUserCertificate('OpenSSL Check'),
    signingTime,
  }),
)
const [a, b, c, d] = /\/ByteRange \[ (\d+) (\d+) (\d+) (\d+)/.exec(signed.toString('latin1'))!.slice(1).map(Number) as [number, number, number, number]
const contentsHex = signed.toString('latin1', b + 1, c - 1)
const cms = Buffer.from(contentsHex.slice(0, 2 * (4 + parseInt(contentsHex.slice(4, 8), 16))), 'hex')
const signedBytes = Buffer.concat([signed.subarray(a, a + b), signed.subarray(c, c + d)])

const dir = await mkdtemp(join(tmpdir(), 'cms-'))
t.teardown(() => rm(dir, { recursive: true, force: true }))
await writeFile(join(dir, 'sig.der'), cms)
await writeFile(join(dir, 'data.bin'), signedBytes)
await writeFile(join(dir, 'ca.pem'), testCertificateAuthority().certificatePem)

t.test('openssl verifies the detached signature over the ByteRange bytes, chained to the CA', async (t) => {
  const { stderr } = await run('openssl', ['cms', '-verify', '-binary', '-inform', 'DER', '-in', join(dir, 'sig.der'), '-content', join(dir, 'data.bin'), '-CAfile', join(dir, 'ca.pem'), '-purpose', 'any', '-out', '/dev/null'])
  t.match(stderr, /Verification successful/)
})

t.test('openssl rejects it over different bytes', async (t) => {
  await writeFile(join(dir, 'other.bin'), Buffer.concat([signedBytes, Buffer.from(' ')]))
  await t.rejects(
    run('openssl', ['cms', '-verify', '-binary', '-inform', 'DER', '-in', join(dir, 'sig.der'), '-content', join(dir, 'other.bin'), '-noverify', '-out', '/dev/null']),
    /digest failure|Verification failure/,
  )
})

t.test('PAdES B-B signed attributes: contentType data, a SHA-256 message digest, ESS signing-certificate-v2 of the signer; no signing time', async (t) => {
  const { stdout } = await run('openssl', ['cms', '-cmsout', '-print', '-inform', 'DER', '-in', join(dir, 'sig.der')])
  t.match(stdout, /object: contentType \(1\.2\.840\.113549\.1\.9\.3\)[\s\S]*?OBJECT:pkcs7-data/)
  t.match(stdout, /object: messageDigest/)
  t.match(stdout, /algorithm: sha256/)
  t.match(stdout, /CN=OpenSSL Check/)
  t.match(stdout, /object: id-smime-aa-signingCertificateV2 \(1\.2\.840\.113549\.1\.9\.16\.2\.47\)/)
  t.notMatch(stdout, /signingTime/, 'the claimed time is the dictionary\'s /M, not a CMS attribute')
  t.match(stdout, /unsignedAttrs:\s*<ABSENT>/, 'no timestamp was asked for')
})

t.test('the ESSCertIDv2 holds the SHA-256 of the signer certificate and its issuer and serial (openssl asn1parse)', async (t) => {
  const { stdout: pem } = await run('openssl', ['pkcs7', '-inform', 'DER', '-in', join(dir, 'sig.der'), '-print_certs'])
  const signerPem = /-----BEGIN CERTIFICATE-----[\s\S]*?-----END CERTIFICATE-----/.exec(pem.slice(pem.indexOf('OpenSSL Check')))![0]
  await writeFile(join(dir, 'signer.pem'), signerPem)
  const { stdout: facts } = await run('openssl', ['x509', '-in', join(dir, 'signer.pem'), '-noout', '-fingerprint', '-sha256', '-serial'])
  const fingerprint = /Fingerprint=([0-9A-F:]+)/.exec(facts)![1]!.replace(/:/g, '')
  const serial = /serial=([0-9A-F]+)/.exec(facts)![1]!
  const { stdout: tree } = await run('openssl', ['asn1parse', '-inform', 'DER', '-in', join(dir, 'sig.der')])
  const after = tree.slice(tree.indexOf(':id-smime-aa-signingCertificateV2'))
  t.ok(tree.includes(':id-smime-aa-signingCertificateV2'), 'the attribute is there')
  t.equal(/OCTET STRING\s+\[HEX DUMP\]:([0-9A-F]+)/.exec(after)?.[1], fingerprint, 'certHash = SHA-256 of the certificate')
  t.match(after.slice(0, 1200), /cont \[ 4 \][\s\S]*?commonName[\s\S]*?:Test Signing CA/, 'issuerSerial names the issuer as a directoryName')
  t.equal(/INTEGER\s+:([0-9A-F]+)/.exec(after)?.[1], serial, 'and the serial')
})
