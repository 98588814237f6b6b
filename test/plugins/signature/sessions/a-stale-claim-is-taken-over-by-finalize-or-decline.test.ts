// Issue 15, item 3, at the manager: a claim left by a process that died mid-finalize holds the
// request ('The request is signing') only for the stale-claim window; after it the next finalize
// takes it over and a decline may end it. The clock is the manager's own, so nothing waits.
import t from 'tap'
import { forEachEngine } from '../../../core/db/engines.ts'
import { PEOPLE, sessionFixture } from './session-fixture.ts'

t.setTimeout(240_000)

const WINDOW_MS = 1000

forEachEngine(t, 'a dead claim blocks for the window only', async (database, _engine, t) => {
  // Starts now: the certificates the fixture issues are valid from now on.
  let clock = Date.now()
  const at = (ms: number) => new Date(clock + ms).toISOString()
  const { manager, repository, sign, requestFor } = await sessionFixture(t, database, { staleClaimMs: WINDOW_MS, now: () => new Date(clock) })
  const outcome = (promise: Promise<unknown>) => promise.then(() => 'ok', (error: { statusCode?: number; message?: string }) => `${error.statusCode} ${error.message}`)

  const first = await manager.create(PEOPLE.ada, { template: 'agreement', signable: 'ag-1', mode: 'parallel' })
  const alices = requestFor(first, 'party-a')
  // What a finalize that was SIGKILLed after its claim leaves behind.
  t.ok(await repository.claim(alices, 'dead-process', at(0), at(-WINDOW_MS)), 'the dead finalize had claimed it')

  clock += WINDOW_MS / 2
  t.equal(await outcome(sign(PEOPLE.alice, alices)), '409 The request is signing', 'within the window: still being signed')
  t.equal(await outcome(manager.decline(PEOPLE.alice, first.id, alices, { reason: 'no' })), '409 The request is signing', 'decline too')

  clock += WINDOW_MS
  const taken = await sign(PEOPLE.alice, alices)
  t.equal(taken.status, 'signed', 'after the window the next finalize takes the claim over')
  t.equal((await repository.findRequest(alices))?.claim_token, null)

  const second = await manager.create(PEOPLE.ada, { template: 'agreement', signable: 'ag-1', mode: 'parallel' })
  const brunos = requestFor(second, 'party-b')
  t.ok(await repository.claim(brunos, 'dead-process', new Date(clock).toISOString(), at(-WINDOW_MS)))
  clock += WINDOW_MS + 1
  const declined = await manager.decline(PEOPLE.bruno, second.id, brunos, { reason: 'The terms changed' })
  t.equal(declined.status, 'declined', 'a stale request can be declined')
  const row = await repository.findRequest(brunos)
  t.match(row, { status: 'declined', claim_token: null, claimed_at: null, decline_reason: 'The terms changed' })
  t.equal(await outcome(sign(PEOPLE.bruno, brunos)), '409 The session is declined', 'and the dead finalize cannot come back')
})

forEachEngine(t, 'a finalize whose claim was taken over answers 409, not 500', async (database, _engine, t) => {
  let clock = Date.now()
  // The slow finalize: after writing its file it outlives its claim, and a retry takes over and signs.
  let takeOver: (() => Promise<unknown>) | undefined
  const { manager, repository, sign, requestFor } = await sessionFixture(t, database, {
    staleClaimMs: WINDOW_MS,
    now: () => new Date(clock),
    hooks: { afterDocumentWritten: async () => { const run = takeOver; takeOver = undefined; await run?.() } },
  })
  const session = await manager.create(PEOPLE.ada, { template: 'agreement', signable: 'ag-1', mode: 'parallel' })
  const alices = requestFor(session, 'party-a')
  let retry: { status: string; signature_uuid: string } | undefined
  takeOver = async () => {
    clock += WINDOW_MS + 1
    retry = await sign(PEOPLE.alice, alices)
  }
  const slow = await sign(PEOPLE.alice, alices).then(() => 'ok', (error: { statusCode?: number; code?: string }) => `${error.statusCode} ${error.code}`)
  t.equal(retry?.status, 'signed', 'the retry took the stale claim over and signed')
  t.equal(slow, '409 ERR_SESSION_REQUEST_CLOSED', 'the slow finalize is told its claim was taken over')
  const row = await repository.findRequest(alices)
  t.match(row, { status: 'signed', signature_uuid: retry?.signature_uuid, claim_token: null }, 'the retry\'s signature is the one recorded')
})
