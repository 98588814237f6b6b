import { readdir } from 'node:fs/promises'
import t from 'tap'
import { buildTestApp, DEMO } from '../../../helpers/app.ts'
import { makePdf } from '../../../fixtures/pdf/make-pdf.ts'
import { SignatureRepository } from '../../../../plugins/signature/library/signature-repository.ts'
import type { SignaturePositionTable } from '../../../../plugins/signature/library/library-tables.ts'
import { SignatureManager } from '../../../../plugins/signature/signing/signature-manager.ts'
import { signerWithSignature } from './helpers.ts'

/** Fails inside the transaction, after the child row was inserted: the row must roll back. */
class FailingPositions extends SignatureRepository {
  override async insertPositions(_rows: SignaturePositionTable[]): Promise<never> {
    throw new Error('injected failure while writing positions')
  }
}

async function files(dir: string): Promise<string[]> {
  try {
    return (await readdir(dir, { recursive: true, withFileTypes: true })).filter((e) => e.isFile()).map((e) => e.name)
  } catch { return [] }
}

t.test('a failed transaction leaves no row and no file; a good one leaves both, pointing at each other', async (t) => {
  const app = await buildTestApp(t)
  const staff = await signerWithSignature(app, DEMO.staff.email)
  const material = await app.signature.library.signingMaterial(DEMO.staff.id, staff.signature)
  const { disk, pdf: pool, signatures } = app.signature
  const pdf = await makePdf()
  const input = { pdf, material, subject: { type: 'upload', id: 'crash-test', templateKey: null }, placements: [{ slot: null, page: 1, x: 72, y: 66, width: 240, height: 48 }] }

  const broken = new SignatureManager({ repository: new FailingPositions(signatures.db), disk, pdf: pool })
  await t.rejects(broken.sign(input), /injected failure/)
  t.same(await signatures.db.selectFrom('digital_signatures').select('uuid').where('source_uuid', '=', staff.signature).execute(), [], 'the child row rolled back')
  t.same(await files(disk.path('signed')), [], 'the signed file was removed, no temporary file left')

  const manager = new SignatureManager({ repository: signatures, disk, pdf: pool })
  const signed = await manager.sign(input)
  const row = await signatures.find(signed.uuid)
  t.equal(row?.document_key, signed.documentKey)
  t.ok(await disk.exists(row!.document_key!), 'the row points at a file that exists')
  t.same(await files(disk.path('signed')), [`${signed.uuid}.pdf`], 'exactly one file, no leftovers')
  t.equal((await signatures.positions(signed.uuid)).length, 1)
})
