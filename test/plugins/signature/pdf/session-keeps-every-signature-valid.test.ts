// The product requirement: a certified document signed by several people one after the other,
// where every signature stays valid. Checked on a 1-page document and on a 100-page one that
// arrives with a cross-reference stream, with signers who do not sign in slot order.
import t from 'tap'
import { freezeDocument, signField, type SignatureSlot } from '../../../../plugins/signature/pdf/index.ts'
import { inkShare, mupdfChangeHistory, pdfsig, qpdfCheck } from '../../../fixtures/pdf/checkers.ts'
import { makePdf } from '../../../fixtures/pdf/make-pdf.ts'
import { makeStampJpeg, makeStampPng } from '../../../fixtures/pdf/stamp-image.ts'
import { testUserCertificate } from '../../../fixtures/pdf/test-certificates.ts'

const application = testUserCertificate('Signing Application')
const people = ['Alice Martin', 'Bruno Diaz', 'Chen Wei'].map((name) => ({ name, certificate: testUserCertificate(name) }))

interface Scenario {
  title: string
  pdf: Uint8Array
  slots: SignatureSlot[]
  /** Index into slots/people, in signing order. */
  order: number[]
  /** A region with nothing on it on every page that has a slot, to prove stamps stay in their boxes. */
  blank: { x: number; y: number; width: number; height: number }
}

const scenarios: Scenario[] = [
  {
    title: '1 page, US Letter landscape',
    pdf: await makePdf(),
    slots: [0, 1, 2].map((i) => ({ name: `signer-${i + 1}`, page: 1, x: 40 + 250 * i, y: 60, width: 210, height: 90 })),
    order: [0, 1, 2],
    blank: { x: 40, y: 250, width: 700, height: 150 },
  },
  {
    title: '100 pages with a cross-reference stream, signed out of slot order',
    pdf: await makePdf({ pages: 100, objectStreams: true }),
    slots: [
      { name: 'buyer', page: 1, x: 60, y: 400, width: 180, height: 70 },
      { name: 'seller', page: 50, x: 300, y: 100, width: 160, height: 60 },
      { name: 'witness', page: 100, x: 500, y: 300, width: 200, height: 100 },
    ],
    order: [2, 0, 1],
    blank: { x: 40, y: 200, width: 700, height: 80 },
  },
]

for (const scenario of scenarios) {
  t.test(scenario.title, async (t) => {
    const revisions: Uint8Array[] = []
    revisions.push(await freezeDocument(scenario.pdf, { fields: scenario.slots, signer: application }))
    for (const [step, slotIndex] of scenario.order.entries()) {
      const image = step === 1 ? await makeStampJpeg() : makeStampPng()
      const signed = await signField(revisions.at(-1)!, {
        fieldName: scenario.slots[slotIndex]!.name,
        image,
        signer: people[step]!.certificate,
        reason: `Signed by ${people[step]!.name}`,
      })
      revisions.push(signed)
    }
    const final = revisions.at(-1)!

    t.test('every earlier revision is an unchanged prefix of the final file', async (t) => {
      for (const [i, revision] of revisions.entries()) {
        t.ok(Buffer.from(final.subarray(0, revision.length)).equals(Buffer.from(revision)), `revision ${i} (${revision.length} bytes)`)
      }
      t.ok(revisions.every((r, i) => i === 0 || r.length > revisions[i - 1]!.length))
    })

    t.test('pdfsig: 4 signatures, all valid, only the last covers the whole file, each by its own signer', async (t) => {
      const { signatures } = await pdfsig(final)
      t.equal(signatures.length, 4, 'four signatures')
      for (const signature of signatures) t.equal(signature.validation, 'Signature is Valid.', signature.fieldName)
      const byField = new Map(signatures.map((s) => [s.fieldName, s]))
      t.equal(byField.get('Certification')?.commonName, 'Signing Application')
      t.notOk(byField.get('Certification')?.totalDocumentSigned)
      for (const [step, slotIndex] of scenario.order.entries()) {
        const signature = byField.get(scenario.slots[slotIndex]!.name)
        t.equal(signature?.commonName, people[step]!.name)
        t.match(signature?.distinguishedName, people[step]!.certificate.subject.split(', ')[0]!.replace('CN=', ''))
        t.equal(signature?.totalDocumentSigned, step === scenario.order.length - 1, `${signature?.fieldName}: total only for the last signer`)
      }
      t.equal(signatures.filter((s) => s.totalDocumentSigned).length, 1)
    })

    t.test('each intermediate revision also validates completely', async (t) => {
      for (const [i, revision] of revisions.entries()) {
        const { signatures } = await pdfsig(revision)
        const signed = signatures.filter((s) => s.signed)
        t.equal(signed.length, i + 1, `revision ${i}: signatures so far`)
        t.equal(signatures.length - signed.length, scenario.slots.length - i, `revision ${i}: empty fields left`)
        t.ok(signed.every((s) => s.valid), `revision ${i}: all valid`)
        t.equal(signed.filter((s) => s.totalDocumentSigned).length, 1, `revision ${i}: exactly one covers the whole file`)
      }
    })

    t.test('mupdf finds no change forbidden by the DocMDP certification', async (t) => {
      const { verdict, versions } = await mupdfChangeHistory(final)
      t.equal(versions, 4, 'frozen revision plus one per signer')
      t.equal(verdict, 0)
    })

    t.test('qpdf --check is clean', async (t) => {
      const { clean, output } = await qpdfCheck(final)
      t.ok(clean, output)
    })

    t.test('every stamp is visible inside its own field rectangle', async (t) => {
      for (const slot of scenario.slots) {
        const [inside, blank] = await inkShare(final, slot.page, [slot, scenario.blank])
        // Before anyone signed the box was empty (mupdf only flags an unsigned field with a small
        // "SIGN" tab), so the ink comes from the signer's appearance.
        const [before] = await inkShare(revisions[0]!, slot.page, [slot])
        t.ok(inside! > 0.3 && inside! - before! > 0.25, `${slot.name}: ink ${inside} after signing, ${before} before`)
        t.equal(blank, 0, `${slot.name}: the blank region of page ${slot.page} stays white`)
      }
    })
  })
}
