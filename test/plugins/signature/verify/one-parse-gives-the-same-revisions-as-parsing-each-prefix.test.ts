// The verifier reads every revision from one parse (revision-snapshots.ts) instead of parsing each
// prefix of the file; both ways must see the same pages, fields, annotations, appearances and
// objects in every revision: a session document with a cross-reference stream before freezing,
// and @libpdf/core's B-LTA (DSS, document timestamp, a DSS again).
import { HttpTimestampAuthority, P12Signer, PDF } from '@libpdf/core'
import t, { type Test } from 'tap'
import { freezeDocument, signField } from '../../../../plugins/signature/pdf/index.ts'
import { loadPdf } from '../../../../plugins/signature/pdf/load-pdf.ts'
import { withSignatureContentsSkipped } from '../../../../plugins/signature/pdf/signature-contents-skipped.ts'
import { revisionEnds } from '../../../../plugins/signature/verify/pdf-revisions.ts'
import { revisionStatesFromOneParse } from '../../../../plugins/signature/verify/revision-snapshots.ts'
import { revisionState, type RevisionState } from '../../../../plugins/signature/verify/revision-state.ts'
import { makePdf } from '../../../fixtures/pdf/make-pdf.ts'
import { makeStampPng } from '../../../fixtures/pdf/stamp-image.ts'
import { opensslPki } from '../../../fixtures/pdf/openssl-pki.ts'
import { testUserCertificate } from '../../../fixtures/pdf/test-certificates.ts'

function summary(state: RevisionState) {
  return {
    catalog: state.catalogRef,
    pages: state.pages,
    contents: [...state.contentStreams],
    annotations: [...state.annotations],
    fields: [...state.fields.values()].map((f) => [f.name, f.isSignature, f.isSigned, f.widgets.map((w) => w.ref.toString())]),
    appearances: [...state.appearanceOf.keys()],
    signatures: [...state.signatureDictionaries],
    dss: [...state.dss],
    objects: state.refs().map((ref) => `${ref.toString()}=${String(state.lookup(ref)).length}`).sort(),
  }
}

async function compare(t: Test, pdf: Uint8Array, expectedRevisions: number) {
  const parseable = withSignatureContentsSkipped(pdf)
  const ends = revisionEnds(pdf)
  t.equal(ends.length, expectedRevisions)
  const oneParse = await revisionStatesFromOneParse(parseable, ends)
  t.ok(oneParse, 'the parser\'s sections line up with the revisions')
  for (let revision = 1; revision <= ends.length; revision++) {
    const alone = revisionState(await loadPdf(parseable.subarray(0, ends[revision - 1])))
    t.same(summary(oneParse!(revision)), summary(alone), `revision ${revision}`)
  }
}

t.test('a session document (frozen from a file with a cross-reference stream, two signers)', async (t) => {
  const slots = [{ name: 'a', page: 1, x: 40, y: 60, width: 200, height: 80 }, { name: 'b', page: 2, x: 40, y: 60, width: 200, height: 80 }]
  let pdf = await freezeDocument(await makePdf({ pages: 2, objectStreams: true }), { fields: slots, signer: testUserCertificate('App') })
  for (const slot of slots) pdf = await signField(pdf, { fieldName: slot.name, image: makeStampPng(), signer: testUserCertificate(slot.name) })
  await compare(t, pdf, 3)
})

t.test('@libpdf/core B-LTA', async (t) => {
  const pki = await opensslPki(t)
  const alice = await pki.issue('Alice')
  const crl = await pki.crl()
  const { bytes } = await (await PDF.load(await makePdf())).sign({
    signer: await P12Signer.create(alice.p12, 'pw'), level: 'B-LTA', timestampAuthority: new HttpTimestampAuthority(pki.tsaUrl), revocationProvider: { getCRL: async () => crl },
  })
  await compare(t, bytes, 5)
})
