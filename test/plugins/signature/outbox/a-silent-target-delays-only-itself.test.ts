// Issue 36 item 8: one webhook receiver that never answers held up every delivery, e-mail
// included, because a pass waited for its slowest send before picking the next rows. A target
// that does not answer delays only its own later messages: the others keep flowing, what is
// committed meanwhile goes out too, and the silent target's messages still go in order once it
// answers. Waiting is on arrivals (failing with what arrived), never on time.
import t from 'tap'
import { migrateToLatest } from '../../../../core/db/migrate.ts'
import { signatureMigrations } from '../../../../plugins/signature/database/migrations/index.ts'
import { OutboxDispatcher, type OutboxSender, type SendResult } from '../../../../plugins/signature/outbox/outbox-dispatcher.ts'
import { OutboxRepository } from '../../../../plugins/signature/outbox/outbox-repository.ts'
import type { OutboxChannel, SignatureOutboxTable } from '../../../../plugins/signature/outbox/outbox-tables.ts'
import { forEachEngine } from '../../../core/db/engines.ts'

/** Answers every target at once except `silent`, which answers only when released. */
class Receivers implements OutboxSender {
  received: Array<{ target: string; topic: string }> = []
  #release!: () => void
  readonly released = new Promise<void>((resolve) => { this.#release = resolve })
  #waiters: Array<{ test: () => boolean; resolve: () => void }> = []
  async send(row: SignatureOutboxTable): Promise<SendResult> {
    if (row.target === 'silent') await this.released
    else await new Promise((resolve) => setImmediate(resolve))
    this.received.push({ target: row.target, topic: row.topic })
    for (const w of this.#waiters.filter((w) => w.test())) w.resolve()
    return { ok: true }
  }
  release(): void { this.#release() }
  count(filter: (r: { target: string }) => boolean): number { return this.received.filter(filter).length }
  /** Resolves once `filter` matches `count` arrivals; rejects naming what came if they do not. */
  waitFor(filter: (r: { target: string }) => boolean, count: number, what: string): Promise<void> {
    if (this.count(filter) >= count) return Promise.resolve()
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`${what}: ${this.count(filter)} of ${count} arrived; received ${JSON.stringify(this.received)}`)), 60_000)
      this.#waiters.push({ test: () => this.count(filter) >= count, resolve: () => { clearTimeout(timer); resolve() } })
    })
  }
}

forEachEngine(t, 'a target that never answers holds up only its own messages', async (database, _engine, t) => {
  await migrateToLatest(database.db, signatureMigrations)
  const repository = new OutboxRepository(database.db)
  const receivers = new Receivers()
  const dispatcher = new OutboxDispatcher({ repository, senders: { mail: receivers, webhook: receivers }, retry: { baseMs: 1_000, capMs: 60_000, giveUpAfterMs: 86_400_000 }, staleClaimMs: 120_000, batchSize: 20 })
  t.teardown(() => { receivers.release(); return dispatcher.stop() })
  const write = (channel: OutboxChannel, target: string, count: number, from = 0) => database.db.transaction().execute((tx: any) =>
    repository.insert(tx, Array.from({ length: count }, (_, i) => ({ channel, topic: `${target}.${from + i}`, target, payload: {} })), new Date().toISOString()))

  await write('webhook', 'silent', 3)
  await write('webhook', 'fast', 5)
  await write('mail', 'someone@example.com', 5)
  const pass = dispatcher.runOnce()
  await receivers.waitFor((r) => r.target !== 'silent', 10, 'while one receiver is silent, the other target and the mail')
  t.equal(receivers.count((r) => r.target === 'silent'), 0, 'the silent receiver has nothing yet')

  // A commit while the silent send is still waiting: its kick reaches the running dispatcher.
  await write('webhook', 'fast', 3, 5)
  dispatcher.kick()
  await receivers.waitFor((r) => r.target === 'fast', 8, 'a message committed during the silent send')

  receivers.release()
  const result = await pass
  t.ok(result.sent >= 13, `the pass counts what it sent (${result.sent})`)
  await dispatcher.runOnce()
  t.same(receivers.received.filter((r) => r.target === 'silent').map((r) => r.topic), ['silent.0', 'silent.1', 'silent.2'], 'the silent target then gets its messages, in order')
  t.same(receivers.received.filter((r) => r.target === 'fast').map((r) => r.topic), Array.from({ length: 8 }, (_, i) => `fast.${i}`), 'each target in order')
  const pending = await database.db.selectFrom('signature_outbox').select('id').where('status', '!=', 'sent').execute()
  t.equal(pending.length, 0, 'every row sent')
})
