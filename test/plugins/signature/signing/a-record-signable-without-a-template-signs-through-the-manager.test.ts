import { writeFile } from 'node:fs/promises'
import t from 'tap'
import { buildTestApp, DEMO } from '../../../helpers/app.ts'
import { pdfsig } from '../../../fixtures/pdf/checkers.ts'
import { makePdf } from '../../../fixtures/pdf/make-pdf.ts'
import type { Signable } from '../../../../plugins/signature/contracts/signable.ts'
import { isSignable } from '../../../../plugins/signature/contracts/signable.ts'
import { SignatureManager } from '../../../../plugins/signature/signing/signature-manager.ts'
import { signerWithSignature } from './helpers.ts'

t.test('a record implementing Signable itself (its own PDF, no template) is signed by the same manager', async (t) => {
  const app = await buildTestApp(t)
  const staff = await signerWithSignature(app, DEMO.staff.email)
  const file = app.signature.disk.path('legacy/leave-42.pdf')
  await app.signature.disk.put('legacy/leave-42.pdf', await makePdf())
  const leave: Signable = {
    getSignableId: () => 'leave-42',
    getSignableTitle: () => 'Leave request 42',
    getSignablePdfPath: async () => file,
  }
  t.ok(isSignable(leave))
  const manager = new SignatureManager({ repository: app.signature.signatures, disk: app.signature.disk, pdf: app.signature.pdf })
  const material = await app.signature.library.signingMaterial(DEMO.staff.id, staff.signature)
  const { readFile } = await import('node:fs/promises')
  const signed = await manager.sign({
    pdf: await readFile(await leave.getSignablePdfPath()),
    material,
    subject: { type: 'leave-request', id: leave.getSignableId(), templateKey: null, title: leave.getSignableTitle() },
    placements: [{ slot: null, page: 1, x: 72, y: 72, width: 200, height: 60 }],
  })
  t.equal((await pdfsig(signed.bytes)).signatures[0]?.validation, 'Signature is Valid.')
  t.match(await app.signature.signatures.find(signed.uuid), { signable_type: 'leave-request', signable_id: 'leave-42', status: 'signed' })
  void writeFile
})
