// PDFs the app did not make: @libpdf/core at PAdES B-B, B-T, B-LT and B-LTA with an openssl TSA
// and CA, an ECDSA signer, `openssl cms -sign` and @signpdf/signer-p12 into a hand-made
// placeholder. The verifier's verdicts agree with pdfsig (integrity) and mupdf (modifications).
import { execFile } from 'node:child_process'
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { promisify } from 'node:util'
import { HttpTimestampAuthority, P12Signer as LibPdfP12Signer, PDF, type PAdESLevel } from '@libpdf/core'
import { P12Signer } from '@signpdf/signer-p12'
import t from 'tap'
import { verifyPdf } from '../../../../plugins/signature/verify/verify-pdf.ts'
import { mupdfChangeHistory, pdfsig } from '../../../fixtures/pdf/checkers.ts'
import { signWithPlaceholder } from '../../../fixtures/pdf/hand-made-signature.ts'
import { makePdf } from '../../../fixtures/pdf/make-pdf.ts'
import { opensslPki } from '../../../fixtures/pdf/openssl-pki.ts'

const run = promisify(execFile)
const pki = await opensslPki(t)
const alice = await pki.issue('Alice Example')
const crl = await pki.crl()
const anchors = [pki.caPem]

async function libpdfSign(pdf: Uint8Array, p12: Buffer, level: PAdESLevel): Promise<Uint8Array> {
  const doc = await PDF.load(pdf)
  const signer = await LibPdfP12Signer.create(p12, 'pw')
  const { bytes } = await doc.sign({
    signer, level,
    ...(level === 'B-B' ? {} : { timestampAuthority: new HttpTimestampAuthority(pki.tsaUrl) }),
    revocationProvider: { getCRL: async () => crl },
  })
  return bytes
}

t.test('@libpdf/core at each PAdES level: the level is read back, pdfsig and mupdf agree', async (t) => {
  for (const level of ['B-B', 'B-T', 'B-LT', 'B-LTA'] as const) {
    const pdf = await libpdfSign(await makePdf(), alice.p12, level)
    const report = await verifyPdf(pdf, { trustAnchors: anchors })
    const [signature, timestamp] = report.signatures
    t.match(signature, { kind: 'approval', subFilter: 'ETSI.CAdES.detached', integrity: 'valid', trust: 'trusted', level }, level)
    t.match(signature!.signer, { subject: 'CN=Alice Example', issuer: 'CN=OpenSSL Test Root CA' })
    if (level === 'B-B') t.equal(signature!.timestamp, null)
    else t.match(signature!.timestamp, { tsa: 'CN=OpenSSL Test TSA', valid: true, time: /^\d{4}-\d\d-\d\dT/ }, level)
    if (level === 'B-LT' || level === 'B-LTA') {
      t.match(signature, { revocation: 'good', revocationSource: 'dss', verdict: 'valid', modificationsAfter: 'allowed' }, level)
      t.ok(signature!.changes.every((c) => c.allowed), `${level}: ${signature!.changes.map((c) => c.kind).join(', ')}`)
      t.ok(signature!.changes.some((c) => c.kind === 'dss'), `${level}: the DSS is named`)
    } else {
      // Its certificate names an OCSP responder and a CRL that nothing here consulted.
      t.match(signature, { revocation: 'unknown', revocationSource: null, verdict: 'warning', summary: /could not be checked for revocation/ }, level)
    }
    // @libpdf/core adds the TSA's validation data in one more DSS update after the document timestamp.
    if (level === 'B-LTA') t.match(timestamp, { kind: 'document-timestamp', integrity: 'valid', subFilter: 'ETSI.RFC3161', level: null, modificationsAfter: 'allowed', changes: [{ kind: 'dss', allowed: true }] })
    else t.equal(timestamp, undefined)
    t.equal(report.verdict, signature!.verdict)
    t.equal((await mupdfChangeHistory(pdf)).verdict, 0, `${level}: mupdf finds nothing forbidden either`)
    const checked = (await pdfsig(pdf)).signatures.filter((s) => s.validation !== 'Signature has not yet been verified.')
    t.ok(checked[0]!.valid, `${level}: pdfsig agrees the signature is intact`)
  }
})

t.test('online revocation, when allowed, asks the OCSP responder the certificate names (openssl ocsp)', async (t) => {
  await pki.startOcspResponder()
  const pdf = await libpdfSign(await makePdf(), alice.p12, 'B-T')
  const offline = await verifyPdf(pdf, { trustAnchors: anchors })
  t.equal(offline.signatures[0]!.revocation, 'unknown', 'off by default: no request made')
  const online = await verifyPdf(pdf, { trustAnchors: anchors, online: { timeoutMs: 5000, maxBytes: 1 << 20 } })
  t.match(online.signatures[0], { revocation: 'good', revocationSource: 'online', verdict: 'valid' })
  const untrusted = await verifyPdf(pdf, { trustAnchors: [], online: { timeoutMs: 5000, maxBytes: 1 << 20 } })
  t.match(untrusted.signatures[0], { trust: 'untrusted', revocation: 'unknown' }, 'URLs from an untrusted certificate are never fetched')
})

t.test('ECDSA P-256 signer (@libpdf/core): verifies', async (t) => {
  const ec = await pki.issue('Erin Elliptic', { ec: true })
  const pdf = await libpdfSign(await makePdf(), ec.p12, 'B-LT')
  const report = await verifyPdf(pdf, { trustAnchors: anchors })
  t.match(report.signatures[0], { integrity: 'valid', level: 'B-LT', verdict: 'valid', signer: { subject: 'CN=Erin Elliptic' } })
  t.ok((await pdfsig(pdf)).signatures[0]!.valid, 'pdfsig agrees')
})

t.test('openssl cms -sign and @signpdf/signer-p12 into a hand-made placeholder', async (t) => {
  const dir = await mkdtemp(path.join(tmpdir(), 'cms-'))
  t.teardown(() => rm(dir, { recursive: true, force: true }))
  await writeFile(path.join(dir, 'key.pem'), alice.keyPem)
  await writeFile(path.join(dir, 'cert.pem'), alice.certPem)
  const opensslCms = async (covered: Buffer) => {
    await writeFile(path.join(dir, 'covered.bin'), covered)
    await run('openssl', ['cms', '-sign', '-binary', '-md', 'sha256', '-outform', 'DER', '-in', path.join(dir, 'covered.bin'), '-signer', path.join(dir, 'cert.pem'), '-inkey', path.join(dir, 'key.pem'), '-out', path.join(dir, 'sig.der')])
    return readFile(path.join(dir, 'sig.der'))
  }
  const signpdf = async (covered: Buffer) => Buffer.from(await new P12Signer(alice.p12, { passphrase: 'pw' }).sign(covered))
  for (const [name, cms] of [['openssl cms', opensslCms], ['@signpdf/signer-p12', signpdf]] as const) {
    const pdf = await signWithPlaceholder(await makePdf(), cms)
    const report = await verifyPdf(pdf, { trustAnchors: anchors })
    t.match(report.signatures[0], { field: 'HandMade', kind: 'approval', subFilter: 'adbe.pkcs7.detached', integrity: 'valid', trust: 'trusted', coversWholeDocument: true, level: null }, name)
    const [checked] = (await pdfsig(pdf)).signatures
    t.ok(checked!.valid && checked!.totalDocumentSigned, `${name}: pdfsig agrees (${checked!.validation})`)
    // The same file with one signed byte changed: both say broken.
    const broken = Buffer.from(pdf)
    broken[12]! ^= 0x01
    t.equal((await verifyPdf(broken, { trustAnchors: anchors })).signatures[0]!.integrity, 'invalid', `${name}: tampered`)
    t.notOk((await pdfsig(broken)).signatures[0]!.valid, `${name}: pdfsig agrees it is tampered`)
  }
})
