import t from 'tap'
import { buildTestApp, DEMO } from '../../../helpers/app.ts'
import { inkShare, pdfsig } from '../../../fixtures/pdf/checkers.ts'
import { makePdf } from '../../../fixtures/pdf/make-pdf.ts'
import { SignatureManager } from '../../../../plugins/signature/signing/signature-manager.ts'
import { signerWithSignature } from './helpers.ts'

t.test('three boxes on two pages: one signature, three position rows, ink in every box', async (t) => {
  const app = await buildTestApp(t)
  const staff = await signerWithSignature(app, DEMO.staff.email)
  const material = await app.signature.library.signingMaterial(DEMO.staff.id, staff.signature)
  const manager = new SignatureManager({ repository: app.signature.signatures, disk: app.signature.disk, pdf: app.signature.pdf })
  const boxes = [
    { slot: null, page: 1, x: 60, y: 60, width: 200, height: 60 },
    { slot: null, page: 1, x: 400, y: 300, width: 200, height: 60 },
    { slot: null, page: 2, x: 100, y: 100, width: 180, height: 50 },
  ]
  const signed = await manager.sign({ pdf: await makePdf({ pages: 2 }), material, subject: { type: 'upload', id: 'multi', templateKey: null }, placements: boxes })
  const { signatures } = await pdfsig(signed.bytes)
  t.equal(signatures.length, 1)
  t.equal(signatures[0]!.validation, 'Signature is Valid.')
  t.equal((await app.signature.signatures.positions(signed.uuid)).length, 3)
  const page1 = await inkShare(signed.bytes, 1, boxes.slice(0, 2))
  const page2 = await inkShare(signed.bytes, 2, boxes.slice(2))
  for (const share of [...page1, ...page2]) t.ok(share > 0.05, `ink ${(share * 100).toFixed(1)} %`)
})
