// A certificate whose revocation nobody can check is not "good": revoked by its CA, with no answer
// in the file and no OCSP responder or CRL named in it, the signature is a warning (ETSI:
// indeterminate), never valid, online checking or not. And the report says where an answer came
// from: the application CA's own register, read in-process, is not "online".
import { P12Signer, PDF } from '@libpdf/core'
import t from 'tap'
import { verifyPdf } from '../../../../plugins/signature/verify/verify-pdf.ts'
import { makePdf } from '../../../fixtures/pdf/make-pdf.ts'
import { opensslChain, SIGNER_EXTENSIONS } from '../../../fixtures/pdf/openssl-chain.ts'

const pki = await opensslChain(t, 'Revocation Test Root CA')
const anchors = [pki.root.certPem]

async function signedBy(name: string) {
  const signer = await pki.issue(name, pki.root, { extensions: SIGNER_EXTENSIONS })
  const doc = await PDF.load(await makePdf())
  const { bytes } = await doc.sign({ signer: await P12Signer.create(await pki.p12(signer, []), 'pw'), level: 'B-B' })
  return { signer, pdf: bytes }
}

t.test('revoked, no revocation data in the file, no address to ask: a warning, never valid', async (t) => {
  const { signer, pdf } = await signedBy('Rita Revoked Unreachable')
  await pki.revoke(signer)
  for (const online of [null, { timeoutMs: 2000, maxBytes: 1 << 20 }]) {
    const report = await verifyPdf(pdf, { trustAnchors: anchors, online })
    const [signature] = report.signatures
    t.match(signature, { integrity: 'valid', trust: 'trusted', revocation: 'unknown', revocationSource: null, verdict: 'warning' }, `online ${online ? 'on' : 'off'}`)
    t.match(signature!.problems, [/could not be checked for revocation: the document carries no answer and the certificate names no service to ask/])
    t.equal(report.verdict, 'warning')
  }
})

t.test("an answer from the issuer's own register, read in-process, is named so, not 'online'", async (t) => {
  const { signer, pdf } = await signedBy('Ivan Issuer Checked')
  const good = (await verifyPdf(pdf, { trustAnchors: anchors, online: null, issuerCrls: [await pki.crl()] })).signatures[0]!
  t.match(good, { revocation: 'good', revocationSource: 'application-ca', verdict: 'valid' })
  await pki.revoke(signer)
  const revoked = (await verifyPdf(pdf, { trustAnchors: anchors, online: null, issuerCrls: [await pki.crl()] })).signatures[0]!
  t.match(revoked, { revocation: 'revoked', revocationSource: 'application-ca' })
  t.not(revoked.verdict, 'valid', 'revoked, and no timestamp proves the signature came before')
})
