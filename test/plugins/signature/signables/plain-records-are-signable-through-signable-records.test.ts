// Issue 16, item 3: a host's records may be plain data. signableRecords() makes them Signable (id,
// title, PDF from the template); a slot's signatory may be a function of the record, which binds
// the slot exactly as a field name does.
import { access } from 'node:fs/promises'
import t from 'tap'
import type { PublicUser } from '../../../../core/auth/user-repository.ts'
import { isSignable, Slot, type PdfTemplate, type Signable, type SignableSource } from '../../../../plugins/signature/contracts/index.ts'
import { signableRecords } from '../../../../plugins/signature/signables/signable-records.ts'
import { SignerService } from '../../../../plugins/signature/signer/signer-service.ts'
import { makePdf } from '../../../fixtures/pdf/make-pdf.ts'
import { buildTestApp, DEMO } from '../../../helpers/app.ts'
import { signerWithSignature } from '../signing/helpers.ts'

t.setTimeout(120_000)

interface Deed { id: string; title?: string; party: { id: string }; clerkId: string }

const DEEDS: Deed[] = [
  { id: 'deed-1', party: { id: DEMO.staff.id }, clerkId: DEMO.manager.id },
  { id: 'deed-2', title: 'The deed of the mill', party: { id: DEMO.manager.id }, clerkId: DEMO.staff.id },
]
const user = (id: string, role: string): PublicUser => ({ id, role, name: id, email: `${id}@example.com` })

async function deeds(t: Parameters<typeof buildTestApp>[0]) {
  const app = await buildTestApp(t)
  const disk = app.signature.disk
  const rendered: unknown[] = []
  const template: PdfTemplate = {
    key: () => 'deed',
    label: () => 'Deed',
    slots: () => [
      // Bound by a function of the record, and by a field name: the two ways must refuse alike.
      Slot.make<Deed>('party').at({ page: 1, x: 40, y: 60, width: 150, height: 50 }).signatory((deed) => deed.party.id),
      Slot.make<Deed>('clerk').at({ page: 1, x: 220, y: 60, width: 150, height: 50 }).signatory('clerkId'),
    ],
    renderSample: async () => disk.put('samples/deed.pdf', await makePdf()),
    renderFor: async (record) => { rendered.push(record); return disk.put(`documents/deed-${(record as Deed).id}.pdf`, await makePdf()) },
  }
  app.signature.registry.register(template)
  const plain: SignableSource<Deed> = { forTemplate: () => DEEDS, find: (key, id) => (key === 'deed' ? DEEDS.find((d) => d.id === id) ?? null : null) }
  const source = signableRecords(app.signature.registry, plain)
  return { app, source, rendered, service: new SignerService(app.signature, source, app.policy) }
}

t.test('a plain record becomes Signable: id, title (or the template\'s default) and its PDF', async (t) => {
  const { app, source, rendered } = await deeds(t)
  const [first, second] = await source.forTemplate('deed')
  t.ok(isSignable(first) && isSignable(second))
  t.equal(first!.getSignableId(), 'deed-1')
  t.equal(first!.getSignableTitle(), 'Deed #deed-1', 'no title: "<template label> #<id>", as HasPdfTemplate')
  t.equal(second!.getSignableTitle(), 'The deed of the mill', 'its own title')
  t.same((first as unknown as Deed).party, DEEDS[0]!.party, 'the record\'s fields are still there for the view and the signatories')
  const file = await first!.getSignablePdfPath()
  t.equal(file, app.signature.disk.path('documents/deed-deed-1.pdf'), 'the template\'s renderFor() of the record')
  await access(file)
  t.equal(rendered[0], first, 'rendered with the record as the plugin sees it')
  t.equal((await source.find('deed', 'deed-2'))!.getSignableTitle(), 'The deed of the mill', 'find() too')
  t.equal(await source.find('deed', 'nope'), null)
})

t.test('a record that already is Signable passes through unchanged', async (t) => {
  const { app } = await deeds(t)
  const direct: Signable = { getSignableId: () => 'x', getSignableTitle: () => 'Direct', getSignablePdfPath: async () => '/tmp/direct.pdf' }
  const source = signableRecords(app.signature.registry, { forTemplate: () => [direct], find: () => direct })
  t.equal((await source.forTemplate('deed'))[0], direct)
  t.equal(await source.find('deed', 'x'), direct)
})

t.test('a signatory function binds its slot: the signer refuses another user with the field name\'s code', async (t) => {
  const { app, service } = await deeds(t)
  const staff = await signerWithSignature(app, DEMO.staff.email, 'Sam')
  const manager = await signerWithSignature(app, DEMO.manager.email, 'Max')
  const sign = (who: PublicUser, signature: string, deed: string, slot: string, x: number) =>
    service.finalize(who, 'deed', { signature, signable: deed, placements: [{ slot, page: 1, x, y: 60, width: 150, height: 50 }] })
      .then(() => 'signed', (error: { code?: string }) => error.code)
  const asStaff = user(DEMO.staff.id, 'staff')
  const asManager = user(DEMO.manager.id, 'manager')

  t.equal(await sign(asManager, manager.signature, 'deed-1', 'party', 40), 'ERR_NOT_SIGNATORY', 'function-bound slot, another user')
  t.equal(await sign(asStaff, staff.signature, 'deed-1', 'clerk', 220), 'ERR_NOT_SIGNATORY', 'field-bound slot, another user: the same code')
  t.same(await service.slotsFor(service.template('deed'), (await service.record(service.template('deed'), 'deed-1', asStaff)), asStaff), ['party'], 'the function names the staff member as the party')
  t.equal(await sign(asStaff, staff.signature, 'deed-1', 'party', 40), 'signed', 'the bound user signs the plain record')
  t.equal(await sign(asManager, manager.signature, 'deed-1', 'clerk', 220), 'signed')
  const rows = await app.signature.database.db.selectFrom('digital_signatures').select('signable_id')
    .where('signable_type', '=', 'deed').where('status', '=', 'signed').execute()
  t.same(rows.map((r) => r.signable_id), ['deed-1', 'deed-1'], 'signed under the plain record\'s id')
})
