// Issue 35 item 6: B-LT was claimed when the DSS answered for the signer's certificate alone. It
// now needs an answer in the file for every certificate of the signer's path and of its
// timestamp's TSA path but the trust anchors. Two documents, signed by the same signer and given
// the same DSS (the root's CRL and the certificates): with a TSA the root issued, the CRL answers
// for both paths (B-LT); with a TSA under an intermediate nobody answers for, it is B-T.
import { execFile } from 'node:child_process'
import { readFile, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { promisify } from 'node:util'
import { X509Certificate } from 'node:crypto'
import { P12Signer, PDF } from '@libpdf/core'
import t from 'tap'
import { appendDss } from '../../../../plugins/signature/ltv/append-dss.ts'
import { verifyPdf } from '../../../../plugins/signature/verify/verify-pdf.ts'
import { makePdf } from '../../../fixtures/pdf/make-pdf.ts'
import { CA_EXTENSIONS, opensslChain, SIGNER_EXTENSIONS, type ChainCertificate } from '../../../fixtures/pdf/openssl-chain.ts'

const run = promisify(execFile)
const pki = await opensslChain(t, 'Long Term Root CA')
const file = (name: string) => path.join(pki.dir, name)
const openssl = (...args: string[]) => run('openssl', args, { cwd: pki.dir })
const TSA_EXTENSIONS = ['basicConstraints=CA:false', 'keyUsage=critical,digitalSignature', 'extendedKeyUsage=critical,timeStamping']
const signer = await pki.issue('Lena Longterm', pki.root, { extensions: SIGNER_EXTENSIONS })
const rootTsa = await pki.issue('Root Issued TSA', pki.root, { extensions: TSA_EXTENSIONS })
const tsaCa = await pki.issue('TSA Intermediate CA', pki.root, { extensions: CA_EXTENSIONS })
const deepTsa = await pki.issue('Intermediate Issued TSA', tsaCa, { extensions: TSA_EXTENSIONS })
await writeFile(file('tsa.cnf'), `[ tsa ]\ndefault_tsa = tsa_config\n[ tsa_config ]\nserial = ${file('tsaserial')}\nsigner_digest = sha256\ndefault_policy = 1.2.3.4.1\ndigests = sha256\ness_cert_id_alg = sha256\n`)
await writeFile(file('tsaserial'), '01\n')

async function token(digest: Uint8Array, tsa: ChainCertificate): Promise<Buffer> {
  await openssl('ts', '-query', '-digest', Buffer.from(digest).toString('hex'), '-sha256', '-cert', '-no_nonce', '-out', file('q.tsq'))
  await openssl('ts', '-reply', '-config', file('tsa.cnf'), '-queryfile', file('q.tsq'), '-signer', tsa.certPath, '-inkey', tsa.keyPath, '-token_out', '-out', file('t.tok'))
  return readFile(file('t.tok'))
}

/** Signed at B-T with `tsa`, then one DSS update with the root's CRL and every certificate. */
async function signedWithDss(tsa: ChainCertificate) {
  const doc = await PDF.load(await makePdf())
  const { bytes } = await doc.sign({
    signer: await P12Signer.create(await pki.p12(signer, []), 'pw'),
    level: 'B-T',
    timestampAuthority: { timestamp: async (digest) => new Uint8Array(await token(digest, tsa)) },
  })
  const der = (c: ChainCertificate) => new Uint8Array(new X509Certificate(c.certPem).raw)
  const certificates = [signer, rootTsa, tsaCa, deepTsa].map(der)
  return appendDss(bytes, { certificates, ocsps: [], crls: [new Uint8Array(await pki.crl())], vri: [] })
}

t.test('the same DSS: B-LT when it answers for the TSA path too, B-T when it does not', async (t) => {
  for (const [tsa, level] of [[rootTsa, 'B-LT'], [deepTsa, 'B-T']] as const) {
    const report = await verifyPdf(await signedWithDss(tsa), { trustAnchors: [pki.root.certPem] })
    const [signature] = report.signatures
    t.match(signature, { integrity: 'valid', trust: 'trusted', revocation: 'good', revocationSource: 'dss', timestamp: { valid: true, tsa: `CN=${tsa.name}` } }, `${tsa.name}: the signer is answered for by the DSS`)
    t.equal(signature!.level, level, `${tsa.name}: ${level}`)
    t.equal(report.document.level, level)
  }
})
