// The outbox rows of a session change are written in the change's own transaction, on SQLite and
// PostgreSQL: a signature rolled back at the last moment leaves no message; who is told what
// follows the signing order (sequential: one invitation at a time; parallel: all at once); a
// decline tells the creator and the others, not the one who declined; the last signature tells
// everyone it is complete.
import t from 'tap'
import { OutboxRepository } from '../../../../plugins/signature/outbox/outbox-repository.ts'
import { OutboxWriter } from '../../../../plugins/signature/outbox/outbox-writer.ts'
import { sessionOutbox } from '../../../../plugins/signature/sessions/session-notifications.ts'
import { EndpointRepository } from '../../../../plugins/signature/webhooks/endpoint-repository.ts'
import { forEachEngine } from '../../../core/db/engines.ts'
import { PEOPLE, sessionFixture } from './session-fixture.ts'

t.setTimeout(300_000)

async function fixture(t: any, database: any, failNextCommit: { on: boolean }) {
  const writer = new OutboxWriter(new OutboxRepository(database.db), new EndpointRepository(database.db))
  let commits = 0
  writer.afterCommit(() => { commits++ })
  const f = await sessionFixture(t, database, {
    events: sessionOutbox(writer),
    hooks: { beforeCommit: () => { if (failNextCommit.on) { failNextCommit.on = false; throw new Error('crash before commit') } } },
  })
  // Every endpoint subscribes to everything, so webhook rows show every event.
  await database.db.insertInto('webhook_endpoints').values({ id: '00000000-0000-4000-8000-0000000000e1', url: 'https://example.com/h', description: '', events: JSON.stringify(['session.created', 'session.request.signed', 'session.request.declined', 'session.completed', 'session.cancelled', 'session.request.opened']), secret_sealed: 'x', status: 'active', created_by: 'u', created_at: '2026-01-01T00:00:00.000Z', updated_at: '2026-01-01T00:00:00.000Z' }).execute()
  const rows = async () => (await database.db.selectFrom('signature_outbox').select(['channel', 'topic', 'target']).orderBy('id').execute())
    .map((r: any) => (r.channel === 'mail' ? `mail ${r.topic} -> ${r.target}` : `webhook ${r.topic}`))
  return { ...f, rows, commits: () => commits }
}

forEachEngine(t, 'sequential: one invitation at a time; a rolled-back signature leaves no message', async (database, _engine, t) => {
  const fail = { on: false }
  const { manager, sign, requestFor, rows, commits } = await fixture(t, database, fail)
  const created = await manager.create(PEOPLE.ada, { template: 'agreement', signable: 'ag-1', mode: 'sequential' })
  t.same(await rows(), ['mail invitation -> u-alice', 'webhook session.created'], 'only the first signer is invited')
  t.equal(commits(), 1, 'the dispatcher is asked after the commit')

  fail.on = true
  await t.rejects(sign(PEOPLE.alice, requestFor(created, 'party-a')), /crash before commit/)
  t.same(await rows(), ['mail invitation -> u-alice', 'webhook session.created'], 'the rolled-back signature wrote no message')

  await sign(PEOPLE.alice, requestFor(created, 'party-a'))
  t.same((await rows()).slice(2), ['mail invitation -> u-bruno', 'webhook session.request.signed'], 'then the second signer, with the signature')
  await sign(PEOPLE.bruno, requestFor(created, 'party-b'))
  await sign(PEOPLE.chen, requestFor(created, 'witness'))
  t.same((await rows()).slice(4), [
    'mail invitation -> u-chen', 'webhook session.request.signed',
    'webhook session.request.signed', 'mail completed -> u-ada', 'mail completed -> u-alice', 'mail completed -> u-bruno', 'mail completed -> u-chen', 'webhook session.completed',
  ], 'the last signature completes the session: everyone is told')
})

forEachEngine(t, 'parallel: everyone invited at once; a decline tells the others, not the decliner', async (database, _engine, t) => {
  const { manager, requestFor, rows } = await fixture(t, database, { on: false })
  const created = await manager.create(PEOPLE.ada, { template: 'agreement', signable: 'ag-1', mode: 'parallel' })
  t.same(await rows(), ['mail invitation -> u-alice', 'mail invitation -> u-bruno', 'mail invitation -> u-chen', 'webhook session.created'])
  await manager.decline(PEOPLE.bruno, created.id, requestFor(created, 'party-b'), { reason: 'Not my contract' })
  t.same((await rows()).slice(4), ['mail declined -> u-ada', 'mail declined -> u-alice', 'mail declined -> u-chen', 'webhook session.request.declined'])
  await t.rejects(manager.cancel(PEOPLE.ada, created.id), { code: 'ERR_SESSION_CLOSED' })
  t.equal((await rows()).length, 8, 'a refused cancel writes nothing')
})
