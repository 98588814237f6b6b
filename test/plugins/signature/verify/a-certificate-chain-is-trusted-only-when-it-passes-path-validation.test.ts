// RFC 5280 path validation of the signer's chain: a chain that reaches the trust anchor but runs
// through a certificate that may not issue certificates (an end-entity certificate, a CA past its
// pathLenConstraint, an issuer without keyCertSign), through an expired intermediate, or that
// carries a critical extension nobody understands, is not trusted and the verdict is not "valid".
// openssl builds the certificates, @libpdf/core signs, and `openssl verify` must agree each time.
import { P12Signer, PDF } from '@libpdf/core'
import t, { type Test } from 'tap'
import { verifyPdf } from '../../../../plugins/signature/verify/verify-pdf.ts'
import { makePdf } from '../../../fixtures/pdf/make-pdf.ts'
import { CA_EXTENSIONS, opensslChain, opensslDate, SIGNER_EXTENSIONS, type ChainCertificate } from '../../../fixtures/pdf/openssl-chain.ts'

const pki = await opensslChain(t)
const DAY = 86_400_000

async function verdicts(leaf: ChainCertificate, intermediates: ChainCertificate[]) {
  const doc = await PDF.load(await makePdf())
  const { bytes } = await doc.sign({ signer: await P12Signer.create(await pki.p12(leaf, intermediates), 'pw'), level: 'B-B' })
  const report = await verifyPdf(bytes, { trustAnchors: [pki.root.certPem] })
  return { report, signature: report.signatures[0]!, openssl: await pki.opensslVerify(leaf, intermediates) }
}

function refused(t: Test, result: Awaited<ReturnType<typeof verdicts>>, why: RegExp, opensslWhy: RegExp) {
  t.match(result.signature, { integrity: 'valid', trust: 'untrusted' })
  t.not(result.signature.verdict, 'valid')
  t.not(result.report.verdict, 'valid')
  t.match(result.signature.problems.join(' | '), why)
  t.notOk(result.openssl.ok, 'openssl verify refuses the same chain')
  t.match(result.openssl.output, opensslWhy)
}

t.test('control: root -> CA -> signer is trusted, and openssl verify accepts it', async (t) => {
  const ca = await pki.issue('Good Intermediate', pki.root, { extensions: CA_EXTENSIONS })
  const signer = await pki.issue('Good Signer', ca, { extensions: SIGNER_EXTENSIONS })
  const result = await verdicts(signer, [ca])
  t.match(result.signature, { integrity: 'valid', trust: 'trusted' })
  t.notMatch(result.signature.problems.join(' '), /chain|trusted certificate authority/)
  t.ok(result.openssl.ok, result.openssl.output)
})

t.test('a CA with no keyUsage at all may issue (RFC 5280: any use); openssl agrees', async (t) => {
  const ca = await pki.issue('Intermediate Without Key Usage', pki.root, { extensions: ['basicConstraints=critical,CA:true', 'subjectKeyIdentifier=hash'] })
  const signer = await pki.issue('Signer Below Unrestricted CA', ca, { extensions: SIGNER_EXTENSIONS })
  const result = await verdicts(signer, [ca])
  t.equal(result.signature.trust, 'trusted')
  t.ok(result.openssl.ok, result.openssl.output)
})

t.test('an end-entity certificate (CA:FALSE, no keyUsage) used as an issuer', async (t) => {
  const endEntity = await pki.issue('Plain End Entity', pki.root, { extensions: ['basicConstraints=CA:false', 'subjectKeyIdentifier=hash'] })
  const signer = await pki.issue('Signer Issued By An End Entity', endEntity, { extensions: SIGNER_EXTENSIONS })
  refused(t, await verdicts(signer, [endEntity]), /Plain End Entity issued the certificate of CN=Signer Issued By An End Entity but is not a certificate authority/, /invalid CA certificate/)
})

t.test('a CA below a CA whose pathlen is 0', async (t) => {
  const limited = await pki.issue('Pathlen Zero CA', pki.root, { extensions: ['basicConstraints=critical,CA:true,pathlen:0', 'keyUsage=critical,keyCertSign,cRLSign', 'subjectKeyIdentifier=hash'] })
  const sub = await pki.issue('Sub CA Too Deep', limited, { extensions: CA_EXTENSIONS })
  const signer = await pki.issue('Signer Too Deep', sub, { extensions: SIGNER_EXTENSIONS })
  refused(t, await verdicts(signer, [sub, limited]), /Pathlen Zero CA allows 0 certificate authorities below it, the chain has 1/, /path length constraint exceeded/)
})

t.test('an issuer whose keyUsage does not include keyCertSign', async (t) => {
  const ca = await pki.issue('CA Without KeyCertSign', pki.root, { extensions: ['basicConstraints=critical,CA:true', 'keyUsage=critical,digitalSignature,cRLSign', 'subjectKeyIdentifier=hash'] })
  const signer = await pki.issue('Signer Below Non Signing CA', ca, { extensions: SIGNER_EXTENSIONS })
  refused(t, await verdicts(signer, [ca]), /CA Without KeyCertSign issued .* but its key usage does not allow signing certificates/, /key usage does not include certificate signing/)
})

t.test('an intermediate that expired before the validation time', async (t) => {
  const expired = await pki.issue('Expired Intermediate', pki.root, { extensions: CA_EXTENSIONS, startdate: opensslDate(new Date(Date.now() - 400 * DAY)), enddate: opensslDate(new Date(Date.now() - DAY)) })
  const signer = await pki.issue('Signer Below Expired CA', expired, { extensions: SIGNER_EXTENSIONS })
  refused(t, await verdicts(signer, [expired]), /Expired Intermediate is not valid at .* \(valid .* to /, /certificate has expired/)
})

t.test('a signer certificate with a critical extension nobody here understands', async (t) => {
  const signer = await pki.issue('Signer With Unknown Critical Extension', pki.root, { extensions: [...SIGNER_EXTENSIONS, '1.3.6.1.4.1.55555.1=critical,ASN1:UTF8String:must be understood'] })
  refused(t, await verdicts(signer, []), /critical extension this verifier does not understand \(1\.3\.6\.1\.4\.1\.55555\.1\)/, /unhandled critical extension|unsupported certificate purpose/)
})
