// Issue 15, item 1: an unbound slot may be signed only by someone who may see the record and who
// signs no other slot of the same document — neither bound to another slot nor having already
// signed one on that record — unless a slot says `signerMaySignOtherSlots`. Runs the signer
// service over the real app's services (database, disk, library, PDF workers).
import t from 'tap'
import type { PublicUser } from '../../../../core/auth/user-repository.ts'
import type { PdfTemplate, RegisteredTemplate } from '../../../../plugins/signature/contracts/pdf-template.ts'
import type { Signable } from '../../../../plugins/signature/contracts/signable.ts'
import { SlotDefinition } from '../../../../plugins/signature/contracts/slot-definition.ts'
import { slotsUserMaySign } from '../../../../plugins/signature/signables/slot-signers.ts'
import { SignerService } from '../../../../plugins/signature/signer/signer-service.ts'
import { normalizeSlots } from '../../../../plugins/signature/templates/normalize-slots.ts'
import { makePdf } from '../../../fixtures/pdf/make-pdf.ts'
import { buildTestApp, DEMO } from '../../../helpers/app.ts'
import { signerWithSignature } from '../signing/helpers.ts'

t.setTimeout(120_000)

const box = (x: number) => ({ defaultPage: 1, defaultX: x, defaultY: 60, defaultWidth: 150, defaultHeight: 50, required: false })
const user = (id: string, role: string): PublicUser => ({ id, role, name: id, email: `${id}@example.com` })

class Paper implements Signable {
  constructor(readonly template: PdfTemplate, readonly id: string, readonly partyId?: string) {}
  getSignableId() { return this.id }
  getSignableTitle() { return `${this.template.label()} ${this.id}` }
  getSignablePdfPath() { return this.template.renderFor(this) }
}

/** A template of `slots` registered on the app, its records ([id, partyId]) and a signer service over them. */
function documentKind(app: Awaited<ReturnType<typeof buildTestApp>>, key: string, label: string, slots: SlotDefinition[], records: Array<[string, string?]>) {
  const disk = app.signature.disk
  const template: RegisteredTemplate = {
    key: () => key,
    label: () => label,
    slots: () => slots,
    renderSample: async () => disk.put(`samples/${key}.pdf`, await makePdf()),
    renderFor: async (record) => disk.put(`documents/${key}-${(record as Paper).id}.pdf`, await makePdf()),
  }
  app.signature.registry.register(template)
  const papers = new Map(records.map(([id, partyId]) => [id, new Paper(template, id, partyId)]))
  const service = new SignerService(app.signature, { forTemplate: () => [...papers.values()], find: (_key, id) => papers.get(id) ?? null }, app.policy)
  return { template, papers, service }
}

t.test('an unbound slot is for a viewer who signs no other slot, unless a slot allows it', async (t) => {
  const app = await buildTestApp(t)
  const admin = await signerWithSignature(app, DEMO.admin.email, 'Ada')
  const staff = await signerWithSignature(app, DEMO.staff.email, 'Sam')
  const manager = await signerWithSignature(app, DEMO.manager.email, 'Max')
  const { template, papers: deeds, service } = documentKind(app, 'deed', 'Deed', [
    new SlotDefinition({ key: 'party', label: 'Party', ...box(40), signatory: 'partyId' }),
    new SlotDefinition({ key: 'witness-1', label: 'First witness', ...box(220) }),
    new SlotDefinition({ key: 'witness-2', label: 'Second witness', ...box(400) }),
    new SlotDefinition({ key: 'notary', label: 'Notary', ...box(580), signerMaySignOtherSlots: true }),
  ], [['deed-1', DEMO.staff.id]])
  const sign = (who: PublicUser, signature: string, slot: string, x: number, reason?: string) =>
    service.finalize(who, 'deed', { signature, signable: 'deed-1', placements: [{ slot, page: 1, x, y: 60, width: 150, height: 50 }], ...(reason ? { reason } : {}) })
  const refusal = async (promise: Promise<unknown>) => promise.then(() => 'signed', (error: { code?: string }) => error.code)
  const asAdmin = user(DEMO.admin.id, 'admin')
  const asStaff = user(DEMO.staff.id, 'staff')
  const asManager = user(DEMO.manager.id, 'manager')

  t.equal(await refusal(sign(asManager, manager.signature, 'witness-1', 220)), 'ERR_NOT_FOUND', 'a user who may not see the record: as if it did not exist')
  t.equal(await refusal(sign(asStaff, staff.signature, 'witness-1', 220)), 'ERR_SIGNS_ANOTHER_SLOT', 'the party may not witness')
  t.same(slotsUserMaySign(template, deeds.get('deed-1'), DEMO.staff.id, []), ['party', 'notary'], 'the party is offered their slot and the one that allows it')
  t.same(slotsUserMaySign(template, deeds.get('deed-1'), DEMO.admin.id, ['witness-1']), ['witness-1', 'notary'], 'after one witness slot, that one and the one that allows it')

  t.equal(await refusal(sign(asAdmin, admin.signature, 'witness-1', 220)), 'signed', 'read-any, bound to nothing: may witness')
  t.equal(await refusal(sign(asAdmin, admin.signature, 'witness-2', 400)), 'ERR_SIGNS_ANOTHER_SLOT', 'but not a second slot of the same record')
  // Issue 20: signing a slot again needs a reason (a new version), never silently.
  t.equal(await refusal(sign(asAdmin, admin.signature, 'witness-1', 220)), 'ERR_ALREADY_SIGNED', 'the same slot again, without a reason: refused')
  t.equal(await refusal(sign(asAdmin, admin.signature, 'witness-1', 220, 'The first stamp was smudged')), 'signed', 'the same slot again is not another slot')
  t.equal(await refusal(sign(asAdmin, admin.signature, 'notary', 580)), 'signed', 'a slot that allows it explicitly')
  t.equal(await refusal(sign(asStaff, staff.signature, 'notary', 580, 'Countersigned as the party')), 'signed', 'also for the party')
})

t.test('two finalizes at once for two unbound slots: one signs, the other is refused', async (t) => {
  const app = await buildTestApp(t)
  const admin = await signerWithSignature(app, DEMO.admin.email, 'Ada')
  const { papers: wills, service } = documentKind(app, 'will', 'Will', [
    new SlotDefinition({ key: 'witness-1', label: 'First witness', ...box(40) }),
    new SlotDefinition({ key: 'witness-2', label: 'Second witness', ...box(220) }),
  ], [['will-1'], ['will-2'], ['will-3']])
  const asAdmin = user(DEMO.admin.id, 'admin')
  const sign = (will: string, slot: string, x: number) =>
    service.finalize(asAdmin, 'will', { signature: admin.signature, signable: will, placements: [{ slot, page: 1, x, y: 60, width: 150, height: 50 }] })
      .then(() => 'signed', (error: { code?: string }) => error.code)
  // Each finalize checks the slots already signed, renders and signs in a worker, then stores:
  // without one check inside the storing transaction both pass the check before either stores.
  for (const will of wills.keys()) {
    const outcomes = await Promise.all([sign(will, 'witness-1', 40), sign(will, 'witness-2', 220)])
    t.same([...outcomes].sort(), ['ERR_SIGNS_ANOTHER_SLOT', 'signed'], `${will}: exactly one of the two slots is signed`)
    const rows = await app.signature.database.db.selectFrom('digital_signatures').select('uuid')
      .where('signable_type', '=', 'will').where('signable_id', '=', will).where('status', '=', 'signed').execute()
    t.equal(rows.length, 1, `${will}: one signature row, nothing written for the refused one`)
  }
})

t.test('signerMaySignOtherSlots defaults to false and survives a copy', async (t) => {
  const slot = new SlotDefinition({ key: 'w', label: 'W', ...box(0) })
  t.equal(slot.signerMaySignOtherSlots, false)
  t.equal(slot.with({ signerMaySignOtherSlots: true }).signerMaySignOtherSlots, true)
  t.notOk('signerMaySignOtherSlots' in slot.toJSON(), 'left out of the JSON when off')
  const [plain, open] = normalizeSlots('deed', [{ key: 'witness' }, { key: 'notary', signerMaySignOtherSlots: true }])
  t.same([plain!.signerMaySignOtherSlots, open!.signerMaySignOtherSlots], [false, true], 'config templates declare it per slot')
  t.throws(() => normalizeSlots('deed', [{ key: 'notary', signerMaySignOtherSlots: 'yes' as never }]), /slots\[0\]\.signerMaySignOtherSlots/)
})
