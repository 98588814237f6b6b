// Issue 15, item 2: a session's explicit signer for a slot the record binds must be that slot's
// signatory, and one person signs one slot of a session unless a slot allows it
// (`signerMaySignOtherSlots`). Both refusals are 422 with their own code and write nothing.
import t from 'tap'
import { forEachEngine } from '../../../core/db/engines.ts'
import { buildTestApp, DEMO, login } from '../../../helpers/app.ts'
import { SlotDefinition } from '../../../../plugins/signature/contracts/slot-definition.ts'
import { PEOPLE, SLOTS, sessionFixture } from './session-fixture.ts'

t.setTimeout(240_000)

t.test('over HTTP: the manager cannot name himself employer of his own contract', async (t) => {
  const app = await buildTestApp(t)
  const manager = await login(app, DEMO.manager.email)
  const admin = await login(app, DEMO.admin.email)
  const create = (cookie: string, payload: object) => app.inject({ method: 'POST', url: '/api/signing-sessions', headers: { cookie }, payload })

  const override = await create(manager, { template: 'contract', signable: 'contract-manager', signers: [{ slot: 'employer', user: DEMO.manager.id }, { slot: 'employee' }] })
  t.equal(override.statusCode, 422, override.body)
  t.equal(override.json().code, 'ERR_SESSION_SIGNER_NOT_SIGNATORY')
  t.match(override.json().message, /employer/)

  const twice = await create(admin, { template: 'contract', signable: 'contract-staff', signers: [{ slot: 'employer' }, { slot: 'employee' }, { slot: 'witness', user: DEMO.staff.id }] })
  t.equal(twice.statusCode, 422, twice.body)
  t.equal(twice.json().code, 'ERR_SESSION_SIGNER_REPEATED')
  t.match(twice.json().message, /employee.*witness|witness.*employee/)

  const listed = await app.inject({ url: '/api/signing-sessions', headers: { cookie: admin } })
  t.same(listed.json().data, [], 'no session was created')
})

forEachEngine(t, 'the rules at the manager, and the slot option that lifts the second', async (database, _engine, t) => {
  const strict = await sessionFixture(t, database)
  const named = await strict.manager.create(PEOPLE.ada, { template: 'agreement', signable: 'ag-1', signers: [{ slot: 'party-a', user: PEOPLE.alice.id }, { slot: 'party-b' }, { slot: 'witness' }] })
  t.equal(named.requests.length, 3, 'naming the bound signatory explicitly is fine')
  const wrong = await strict.manager.create(PEOPLE.ada, { template: 'agreement', signable: 'ag-1', signers: [{ slot: 'party-a', user: PEOPLE.mona.id }, { slot: 'party-b' }, { slot: 'witness' }] })
    .then(() => null, (error: { code: string; statusCode: number }) => [error.statusCode, error.code])
  t.same(wrong, [422, 'ERR_SESSION_SIGNER_NOT_SIGNATORY'])

  // The witness bound to nobody: the session names who witnesses.
  const witness = (extra: object = {}) => new SlotDefinition({ key: 'witness', label: 'Witness', defaultPage: 1, defaultX: 540, defaultY: 60, defaultWidth: 210, defaultHeight: 90, required: true, order: 3, ...extra })
  const plain = await sessionFixture(t, database, { slots: [SLOTS[0]!, SLOTS[1]!, witness()] })
  const repeated = await plain.manager.create(PEOPLE.ada, { template: 'agreement', signable: 'ag-1', signers: [{ slot: 'party-a' }, { slot: 'party-b' }, { slot: 'witness', user: PEOPLE.alice.id }] })
    .then(() => null, (error: { code: string; statusCode: number }) => [error.statusCode, error.code])
  t.same(repeated, [422, 'ERR_SESSION_SIGNER_REPEATED'])

  const allowing = await sessionFixture(t, database, { slots: [SLOTS[0]!, SLOTS[1]!, witness({ signerMaySignOtherSlots: true })] })
  const allowed = await allowing.manager.create(PEOPLE.ada, { template: 'agreement', signable: 'ag-1', signers: [{ slot: 'party-a' }, { slot: 'party-b' }, { slot: 'witness', user: PEOPLE.alice.id }] })
  t.same(allowed.requests.map((r) => [r.slot, r.signer.id]), [['party-a', PEOPLE.alice.id], ['party-b', PEOPLE.bruno.id], ['witness', PEOPLE.alice.id]], 'the template allows it explicitly')
})
