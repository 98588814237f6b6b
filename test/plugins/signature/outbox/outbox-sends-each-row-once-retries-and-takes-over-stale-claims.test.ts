// The dispatcher over a real database (SQLite, and PostgreSQL when reachable), driven by calling
// runOnce() with an injected clock: two dispatchers racing send every row once; a failure is
// retried with a growing delay and given up after a day; a claim left by a dead sender is taken
// over only once it is older than the stale window; a target's rows go out oldest first.
import t from 'tap'
import { migrateToLatest } from '../../../../core/db/migrate.ts'
import { signatureMigrations } from '../../../../plugins/signature/database/migrations/index.ts'
import { OutboxDispatcher, type OutboxSender, type SendResult } from '../../../../plugins/signature/outbox/outbox-dispatcher.ts'
import { OutboxRepository } from '../../../../plugins/signature/outbox/outbox-repository.ts'
import type { SignatureOutboxTable } from '../../../../plugins/signature/outbox/outbox-tables.ts'
import { forEachEngine } from '../../../core/db/engines.ts'

const RETRY = { baseMs: 1_000, capMs: 60_000, giveUpAfterMs: 24 * 3_600_000 }
const STALE_MS = 60_000

/** The receiving end: records what reached it, and answers as told. */
class Receiver implements OutboxSender {
  received: Array<{ target: string; topic: string; messageId: string }> = []
  answer: () => SendResult = () => ({ ok: true, summary: 'received' })
  async send(row: SignatureOutboxTable): Promise<SendResult> {
    // A real await between claim and settle, so racing dispatchers interleave.
    await new Promise((resolve) => setImmediate(resolve))
    const result = this.answer()
    if (result.ok) this.received.push({ target: row.target, topic: row.topic, messageId: row.message_id })
    return result
  }
}

function clock(start = Date.parse('2026-03-01T10:00:00.000Z')) {
  let now = start
  return { now: () => new Date(now), advance: (ms: number) => { now += ms }, iso: () => new Date(now).toISOString() }
}

async function setup(database: { db: any }) {
  await migrateToLatest(database.db, signatureMigrations)
  const repository = new OutboxRepository(database.db)
  const time = clock()
  const receiver = new Receiver()
  const dispatcher = () => new OutboxDispatcher({ repository, senders: { mail: receiver, webhook: receiver }, retry: RETRY, staleClaimMs: STALE_MS, now: time.now, batchSize: 50 })
  const write = (count: number, target: (i: number) => string) => database.db.transaction().execute((tx: any) => repository.insert(tx,
    Array.from({ length: count }, (_, i) => ({ channel: 'webhook' as const, topic: `event.${i}`, target: target(i), payload: { i } })), time.iso()))
  return { repository, time, receiver, dispatcher, write, db: database.db }
}

forEachEngine(t, 'two dispatchers racing send each row exactly once, a target\'s rows in order', async (database, _engine, t) => {
  const { receiver, dispatcher, write, db } = await setup(database)
  const rows = await write(40, (i) => `endpoint-${i % 4}`)
  const [a, b] = [dispatcher(), dispatcher()]
  const results = await Promise.all([a.runOnce(), b.runOnce(), a.runOnce(), b.runOnce()])
  t.equal(receiver.received.length, 40, 'every row reached the receiver')
  t.equal(new Set(receiver.received.map((r) => r.messageId)).size, 40, 'none twice')
  // Which drain sends which row depends on how the two interleave; a second call while a drain
  // runs joins it (the same result), so each drain's own counts add up to the rows once.
  t.equal([...new Set(results)].reduce((sum, r) => sum + r.sent, 0), 40, 'the drains\' own counts add up to the rows, none counted twice')
  for (let target = 0; target < 4; target++) {
    const topics = receiver.received.filter((r) => r.target === `endpoint-${target}`).map((r) => Number(r.topic.split('.')[1]))
    t.same(topics, [...topics].sort((x, y) => x - y), `endpoint-${target} got its events oldest first`)
  }
  const states = await db.selectFrom('signature_outbox').select(['status', 'attempts', 'claim_token']).execute()
  t.ok(states.every((s: any) => s.status === 'sent' && Number(s.attempts) === 1 && s.claim_token === null), 'all sent, one attempt each, no claim left')
  const attempts = await db.selectFrom('signature_outbox_attempts').select('outbox_id').execute()
  t.same(attempts.map((a: any) => a.outbox_id).sort(), rows.map((r: { id: string }) => r.id).sort(), 'one attempt row per outbox row')
})

forEachEngine(t, 'a failure is retried after a growing delay and given up after a day', async (database, _engine, t) => {
  const { receiver, dispatcher, write, db, time } = await setup(database)
  const [row] = await write(1, () => 'down')
  const d = dispatcher()
  receiver.answer = () => ({ ok: false, statusCode: 503, error: 'HTTP 503' })
  t.same(await d.runOnce(), { sent: 0, retrying: 1, failed: 0, lost: 0 })
  const first = await db.selectFrom('signature_outbox').selectAll().where('id', '=', row!.id).executeTakeFirst()
  const delay1 = Date.parse(first.next_attempt_at) - time.now().getTime()
  t.ok(delay1 >= 1_000 && delay1 <= 1_200, `first retry after the base delay (${delay1} ms)`)
  t.equal(Number(first.last_status_code), 503)
  t.same(await d.runOnce(), { sent: 0, retrying: 0, failed: 0, lost: 0 }, 'not before its time')
  time.advance(delay1)
  await d.runOnce()
  const second = await db.selectFrom('signature_outbox').selectAll().where('id', '=', row!.id).executeTakeFirst()
  const delay2 = Date.parse(second.next_attempt_at) - time.now().getTime()
  t.ok(delay2 >= 2_000 && delay2 <= 2_400, `then twice as long (${delay2} ms)`)
  time.advance(24 * 3_600_000)
  t.same(await d.runOnce(), { sent: 0, retrying: 0, failed: 1, lost: 0 }, 'a day later it is given up')
  const last = await db.selectFrom('signature_outbox').select(['status', 'attempts']).where('id', '=', row!.id).executeTakeFirst()
  t.same([last.status, Number(last.attempts)], ['failed', 3])
  const log = await db.selectFrom('signature_outbox_attempts').select(['attempt', 'ok', 'status_code']).where('outbox_id', '=', row!.id).orderBy('attempt').execute()
  t.same(log.map((a: any) => [Number(a.attempt), Number(a.ok), Number(a.status_code)]), [[1, 0, 503], [2, 0, 503], [3, 0, 503]], 'every attempt recorded')
  t.equal(receiver.received.length, 0)
})

forEachEngine(t, 'a claim left by a dead sender is taken over after the stale window, not before', async (database, _engine, t) => {
  const { receiver, dispatcher, write, repository, time, db } = await setup(database)
  const [row] = await write(1, () => 'x')
  // What a process killed mid-send leaves: the row claimed, never settled.
  const dead = await repository.claim(row!.id, 'dead0000-0000-4000-8000-000000000000', time.iso(), new Date(time.now().getTime() - STALE_MS).toISOString())
  t.ok(dead, 'the dead sender had claimed it')
  const d = dispatcher()
  time.advance(STALE_MS - 1)
  t.same((await d.runOnce()).sent, 0, 'a live-looking claim is respected')
  time.advance(2)
  t.same((await d.runOnce()).sent, 1, 'a stale claim is taken over')
  t.same(receiver.received.map((r) => r.messageId), [row!.message_id])
  // The dead sender, were it to come back, can no longer settle the row.
  const late = await repository.settle(row!, 'dead0000-0000-4000-8000-000000000000', { status: 'sent', attempt: { started_at: time.iso(), duration_ms: 1, status_code: 200, ok: 1, error: null } })
  t.equal(late, false, 'the old claim\'s holder cannot settle it')
  const final = await db.selectFrom('signature_outbox').select(['status', 'attempts']).where('id', '=', row!.id).executeTakeFirst()
  t.same([final.status, Number(final.attempts)], ['sent', 1])
})

forEachEngine(t, 'a row waiting for its retry does not hold back the next one of its target', async (database, _engine, t) => {
  const { receiver, dispatcher, write } = await setup(database)
  await write(2, () => 'same')
  const d = dispatcher()
  let calls = 0
  receiver.answer = () => (++calls === 1 ? { ok: false, error: 'refused' } : { ok: true })
  const result = await d.runOnce()
  t.same([result.retrying, result.sent], [1, 1], 'the first failed and waits; the second went out')
  t.same(receiver.received.map((r) => r.topic), ['event.1'])
})
