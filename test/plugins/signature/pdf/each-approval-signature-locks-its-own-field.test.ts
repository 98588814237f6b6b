// FieldMDP: every approval signature freezes its own field. The session's fields carry /Lock from
// the certified revision, and each signer's signature repeats it as a FieldMDP reference; a
// countersignature's new field does the same. The certification governs through DocMDP alone.
// Read back by qpdf, not by the engine.
import t from 'tap'
import { countersignDocument, freezeDocument, signDocument, signField } from '../../../../plugins/signature/pdf/index.ts'
import { pdfsig, qpdfObjects } from '../../../fixtures/pdf/checkers.ts'
import { makePdf } from '../../../fixtures/pdf/make-pdf.ts'
import { makeStampPng } from '../../../fixtures/pdf/stamp-image.ts'
import { testUserCertificate } from '../../../fixtures/pdf/test-certificates.ts'

type Dict = Record<string, unknown>
const image = makeStampPng()
const app = testUserCertificate('Application')

/** The signature field named `name` (qpdf's "u:" text) and its signature dictionary. */
function fieldAndSignature(objects: Map<string, unknown>, name: string): { field: Dict; signature: Dict | undefined } {
  const field = [...objects.values()].find((value) => (value as Dict | undefined)?.['/FT'] === '/Sig' && (value as Dict)['/T'] === `u:${name}`) as Dict | undefined
  if (!field) throw new Error(`no field ${name}`)
  const ref = field['/V'] as string | undefined
  return { field, signature: ref ? objects.get(ref) as Dict : undefined }
}

function methods(signature: Dict | undefined): string[] {
  return ((signature?.['/Reference'] as Dict[] | undefined) ?? []).map((reference) => reference['/TransformMethod'] as string)
}

t.test('a session: each slot is locked at freeze, and its signer\'s signature carries the FieldMDP that enforces it', async (t) => {
  const frozen = await freezeDocument(await makePdf(), { fields: [{ name: 'employee', page: 1, x: 50, y: 50, width: 150, height: 60 }, { name: 'manager', page: 1, x: 300, y: 50, width: 150, height: 60 }], signer: app })
  const before = await qpdfObjects(frozen)
  for (const name of ['employee', 'manager']) {
    t.same(fieldAndSignature(before, name).field['/Lock'], { '/Type': '/SigFieldLock', '/Action': '/Include', '/Fields': [`u:${name}`] }, `${name} locks itself`)
  }
  const certification = fieldAndSignature(before, 'Certification')
  t.equal(certification.field['/Lock'], undefined, 'the certification field has no lock')
  t.same(methods(certification.signature), ['/DocMDP'], 'the certification names DocMDP only')

  const signed = await signField(frozen, { fieldName: 'employee', image, signer: testUserCertificate('Employee') })
  const after = await qpdfObjects(signed)
  const employee = fieldAndSignature(after, 'employee').signature!
  t.same(methods(employee), ['/FieldMDP'])
  const params = (employee['/Reference'] as Dict[])[0]!['/TransformParams'] as Dict
  t.match(params, { '/Type': '/TransformParams', '/Action': '/Include', '/Fields': ['u:employee'], '/V': '/1.2' })
  t.equal(fieldAndSignature(after, 'manager').signature, undefined, 'the other slot is still empty')
  const checked = await pdfsig(signed)
  t.ok(checked.signatures.filter((s) => s.signed).every((s) => s.valid), checked.output)
})

t.test('an approval signature made in one pass, and a countersignature, lock their own fields; a certification does not', async (t) => {
  const stamp = { page: 1, x: 300, y: 200, width: 200, height: 80, image }
  const approval = await signDocument(await makePdf(), { stamps: [stamp], signer: testUserCertificate('Approver') })
  const approved = fieldAndSignature(await qpdfObjects(approval), 'Signature')
  t.match(approved.field['/Lock'], { '/Action': '/Include', '/Fields': ['u:Signature'] })
  t.same(methods(approved.signature), ['/FieldMDP'])

  const certified = await signDocument(await makePdf(), { stamps: [stamp], signer: testUserCertificate('Certifier'), certify: {} })
  const certification = fieldAndSignature(await qpdfObjects(certified), 'Signature')
  t.equal(certification.field['/Lock'], undefined)
  t.same(methods(certification.signature), ['/DocMDP'])

  const countersigned = await countersignDocument(certified, { stamps: [{ ...stamp, y: 400 }], signer: testUserCertificate('Second') })
  const second = fieldAndSignature(await qpdfObjects(countersigned), 'Signature 2')
  t.match(second.field['/Lock'], { '/Action': '/Include', '/Fields': ['u:Signature 2'] })
  t.same(methods(second.signature), ['/FieldMDP'])
})
