// A PKCS#12 with an ECDSA P-256 key, made by OpenSSL, opens with its password and signs a PDF
// that pdfsig and OpenSSL verify. (node-forge cannot decode EC keys or certificates: before the
// fix such a file was refused with "holds no private key the password opens".)
import { execFile } from 'node:child_process'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import t from 'tap'
import { readP12 } from '../../../../plugins/signature/certificates/index.ts'
import { signDocument } from '../../../../plugins/signature/pdf/index.ts'
import { pdfsig, qpdfCheck } from '../../../fixtures/pdf/checkers.ts'
import { makePdf } from '../../../fixtures/pdf/make-pdf.ts'
import { makeStampPng } from '../../../fixtures/pdf/stamp-image.ts'
import { opensslEcP12 } from '../../../fixtures/pdf/test-certificates.ts'

const run = promisify(execFile)
const { p12, certificatePem } = await opensslEcP12('ec-secret')

t.test('readP12 opens it: an EC key, its certificate first, the subject as for RSA files', async (t) => {
  const identity = readP12(p12, 'ec-secret')
  t.equal(identity.privateKey.asymmetricKeyType, 'ec')
  t.equal(identity.privateKey.asymmetricKeyDetails?.namedCurve, 'prime256v1')
  t.equal(identity.certificates.length, 1)
  t.equal(identity.subject, 'CN=EC Signer, E=ec@example.org')
  t.ok(identity.notAfter.getTime() > Date.now())
})

t.test('a wrong password is still ERR_P12_PASSWORD', async (t) => {
  t.throws(() => readP12(p12, 'wrong'), { code: 'ERR_P12_PASSWORD' })
})

t.test('the signature it makes is valid for pdfsig and OpenSSL', async (t) => {
  const signed = Buffer.from(await signDocument(await makePdf(), {
    stamps: [{ page: 1, x: 20, y: 20, width: 80, height: 30, image: makeStampPng() }],
    signer: { p12, password: 'ec-secret' },
  }))
  const report = await pdfsig(signed)
  t.equal(report.signatures.length, 1)
  t.equal(report.signatures[0]!.validation, 'Signature is Valid.', report.output)
  t.ok((await qpdfCheck(signed)).clean)

  const [a, b, c, d] = /\/ByteRange \[ (\d+) (\d+) (\d+) (\d+)/.exec(signed.toString('latin1'))!.slice(1).map(Number) as [number, number, number, number]
  const hex = signed.toString('latin1', b + 1, c - 1)
  const cms = Buffer.from(hex.slice(0, 2 * (4 + parseInt(hex.slice(4, 8), 16))), 'hex')
  const dir = await mkdtemp(join(tmpdir(), 'ec-cms-'))
  t.teardown(() => rm(dir, { recursive: true, force: true }))
  await writeFile(join(dir, 'sig.der'), cms)
  await writeFile(join(dir, 'data.bin'), Buffer.concat([signed.subarray(a, a + b), signed.subarray(c, c + d)]))
  await writeFile(join(dir, 'cert.pem'), certificatePem)
  const { stderr } = await run('openssl', ['cms', '-verify', '-binary', '-inform', 'DER', '-in', join(dir, 'sig.der'), '-content', join(dir, 'data.bin'),
    '-CAfile', join(dir, 'cert.pem'), '-purpose', 'any', '-out', '/dev/null'])
  t.match(stderr, /Verification successful/)
})
