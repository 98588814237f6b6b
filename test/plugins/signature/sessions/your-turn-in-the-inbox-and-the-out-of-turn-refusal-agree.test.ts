// The signing-order rule is written once (sessions/signing-order.ts): the inbox's "your turn" and
// finalize's refusal to sign out of turn must give the same answer for every pending request, in
// the cases where a second copy of the rule would most likely drift: two slots sharing an order,
// and an optional earlier slot that is not part of the session.
import t from 'tap'
import { forEachEngine } from '../../../core/db/engines.ts'
import { SlotDefinition } from '../../../../plugins/signature/contracts/slot-definition.ts'
import { PEOPLE, sessionFixture } from './session-fixture.ts'

t.setTimeout(300_000)

const box = { defaultPage: 1, defaultY: 60, defaultWidth: 150, defaultHeight: 90 }
const SLOTS = [
  // Earlier than everyone, optional and bound to nobody: left out of the session, it must not block.
  new SlotDefinition({ key: 'notary', label: 'Notary', ...box, defaultX: 20, required: false, order: 0 }),
  new SlotDefinition({ key: 'party-a', label: 'Party A', ...box, defaultX: 190, required: true, signatory: 'partyA', order: 1 }),
  new SlotDefinition({ key: 'party-b', label: 'Party B', ...box, defaultX: 360, required: true, signatory: 'partyB', order: 1 }),
  new SlotDefinition({ key: 'witness', label: 'Witness', ...box, defaultX: 530, required: true, signatory: 'witness', order: 2 }),
]

forEachEngine(t, 'equal orders sign in any order, an optional earlier slot blocks nobody, and the inbox agrees with finalize', async (database, _engine, t) => {
  const { manager, sign, requestFor } = await sessionFixture(t, database, { slots: SLOTS })
  const created = await manager.create(PEOPLE.ada, { template: 'agreement', signable: 'ag-1', mode: 'sequential' })
  t.same(created.requests.map((r) => [r.slot, r.order]), [['party-a', 1], ['party-b', 1], ['witness', 2]], 'the optional slot is not in the session')

  const signer = { 'party-a': PEOPLE.alice, 'party-b': PEOPLE.bruno, witness: PEOPLE.chen } as const
  const yourTurn = async (slot: keyof typeof signer) => {
    const items = (await manager.inbox(signer[slot])).filter((i) => i.sessionId === created.id)
    t.equal(items.length, 1, `${slot}: one inbox item`)
    t.equal(await manager.waitingCount(signer[slot]), items[0]!.yourTurn ? 1 : 0, `${slot}: the top bar's count agrees with the inbox`)
    return items[0]!.yourTurn
  }
  /** Asks the inbox, then finalize: a refusal out of turn exactly when the inbox says "not yet". */
  const agree = async (slot: keyof typeof signer, expected: boolean) => {
    const turn = await yourTurn(slot)
    t.equal(turn, expected, `${slot}: inbox yourTurn ${expected}`)
    if (turn) {
      t.equal((await sign(signer[slot], requestFor(created, slot))).request.status, 'signed', `${slot}: finalize signs`)
    } else {
      await t.rejects(sign(signer[slot], requestFor(created, slot)), { statusCode: 409, code: 'ERR_SESSION_OUT_OF_ORDER' }, `${slot}: finalize refuses`)
    }
  }

  await agree('witness', false)
  // Party B goes first although Party A is listed first: they share order 1.
  await agree('party-b', true)
  await agree('witness', false)
  t.equal(await yourTurn('party-a'), true, 'party-a: still its turn after party-b signed')
  await agree('party-a', true)
  await agree('witness', true)
  t.equal((await manager.get(PEOPLE.ada, created.id)).status, 'completed')
})
