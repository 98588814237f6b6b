// Row 23: the long-term validation step at the end of a 10-signer session on a 100-page PDF
// (list what must be validated, gather OCSP answers and the CRL, append the DSS, then a document
// timestamp from the in-process TSA) against one signer's B-T signature on the same document.
// Everything runs in this thread, as signing.ts's rows do; the CA's answers come from the same
// builders /pki uses, over a list of statuses instead of the database register.
import { performance } from 'node:perf_hooks'
import { createCertificateAuthority, issueUserCertificate, readP12, serializeCertificateAuthority } from '../../plugins/signature/certificates/index.ts'
import { freezeDocument, signField } from '../../plugins/signature/pdf/index.ts'
import { appendLongTermValidation } from '../../plugins/signature/ltv/append-long-term-validation.ts'
import { collectValidationNeeds } from '../../plugins/signature/ltv/collect-validation-needs.ts'
import { gatherValidationData } from '../../plugins/signature/ltv/gather-validation-data.ts'
import { issueTimestampAuthority } from '../../plugins/signature/pki/app-timestamp-authority.ts'
import { buildCrl } from '../../plugins/signature/pki/build-crl.ts'
import { buildOcspResponse } from '../../plugins/signature/pki/build-ocsp-response.ts'
import { certificateFields, pemToDer } from '../../plugins/signature/pki/certificate-fields.ts'
import { parseOcspRequest } from '../../plugins/signature/pki/parse-ocsp-request.ts'
import { makePdf } from '../../test/fixtures/pdf/make-pdf.ts'
import { makeStampPng } from '../../test/fixtures/pdf/stamp-image.ts'
import { pdfsigVerdicts } from '../lib/pdfsig.ts'
import { median, ms, pick, x, type Row } from '../lib/rows.ts'
import { createPrivateKey } from 'node:crypto'

export async function run(): Promise<Row[]> {
  const ca = createCertificateAuthority({ commonName: 'Bench CA' })
  const serialized = serializeCertificateAuthority(ca)
  const tsa = issueTimestampAuthority(ca)
  const timestamps = { urls: [], authority: { keyPem: tsa.keyPem, certificatesPem: [tsa.certPem, serialized.certPem] } }
  const caDer = pemToDer(serialized.certPem)
  const issuer = { privateKey: createPrivateKey(serialized.keyPem), certificate: certificateFields(caDer) }
  const sources = {
    applicationCa: caDer,
    ocsp: async (request: Buffer) => {
      const parsed = parseOcspRequest(request)
      return buildOcspResponse(parsed, parsed.certIds.map(() => ({ status: 'good' as const })), issuer, new Date())
    },
    crl: async () => buildCrl([], issuer, new Date()),
    trustAnchors: [],
    online: null,
  }
  const signers = Array.from({ length: 10 }, (_, i) => issueUserCertificate(ca, { name: `Signer ${i + 1}`, email: `s${i + 1}@example.org` })).map((s) => readP12(s.p12, s.password))
  const image = makeStampPng()
  const pdf = await makePdf({ pages: 100, objectStreams: true })
  const slots = signers.map((_, i) => ({ name: `slot-${i + 1}`, page: 100, x: 20 + (i % 5) * 150, y: 40 + Math.floor(i / 5) * 100, width: 140, height: 80 }))

  const ltvTimes: number[] = []
  const signTimes: number[] = []
  let sealed: Uint8Array = new Uint8Array()
  let sizes = { signed: 0, sealed: 0 }
  for (let round = 0; round < pick(6, 2) + 1; round++) {
    let current: Uint8Array = await freezeDocument(pdf, { fields: slots, signer: signers[0]!, timestamps })
    for (let i = 0; i < signers.length; i++) {
      const t0 = performance.now()
      current = await signField(current, { fieldName: `slot-${i + 1}`, image, signer: signers[i]!, timestamps })
      if (round > 0 && i === signers.length - 1) signTimes.push(performance.now() - t0)
    }
    const t0 = performance.now()
    const needs = await collectValidationNeeds(current)
    const { missing, ...data } = await gatherValidationData(needs.signatures, sources)
    if (missing.length) throw new Error(`missing validation data: ${missing.join('; ')}`)
    sealed = (await appendLongTermValidation(current, data, { timestamps, permission: needs.permission })).pdf
    // Round 0 is the warm-up.
    if (round > 0) ltvTimes.push(performance.now() - t0)
    sizes = { signed: current.length, sealed: sealed.length }
  }
  const verdicts = pdfsigVerdicts(sealed)
  // The certification, 10 signers and the document timestamp, which pdfsig 22.12 lists but cannot check.
  if (verdicts.length !== 12 || verdicts.slice(0, 11).some((v) => v !== 'Signature is Valid.')) throw new Error(`LTV: pdfsig says ${JSON.stringify(verdicts)}`)
  const ltv = median(ltvTimes)
  const one = median(signTimes)
  return [{
    id: '23', what: 'B-LTA step (DSS + document timestamp) after a 10-signer session, 100 pages / the 10th signer\'s B-T signature (median)',
    // No bar in the issue: a context row. What it costs is mostly three parses of the file
    // (listing needs, DSS, document timestamp); docs/ltv-notes.md has the split.
    ours: ms(ltv), baseline: `10th signer ${ms(one)}`, ratio: x(ltv / one), bar: '-', met: null,
    data: { ltvMs: ltvTimes, signMs: signTimes, bytesBefore: sizes.signed, bytesAfter: sizes.sealed, added: sizes.sealed - sizes.signed },
  }]
}
