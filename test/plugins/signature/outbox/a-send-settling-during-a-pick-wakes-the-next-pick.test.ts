// CI on PostgreSQL: while one receiver was silent, the fifth mail of five never went. Two sends
// settled close together; the drain woke for the first and asked for due rows, the second's
// settle committed while that query ran (so its target's next row was not in the answer), and by
// the time the drain waited again the second send had left the set it waits on. Nothing woke the
// drain until the silent receiver answered. Here the pick's answer is held back until the other
// send has settled, which makes that interleaving certain on either engine.
import t from 'tap'
import { migrateToLatest } from '../../../../core/db/migrate.ts'
import { signatureMigrations } from '../../../../plugins/signature/database/migrations/index.ts'
import { OutboxDispatcher, type OutboxSender, type SendResult } from '../../../../plugins/signature/outbox/outbox-dispatcher.ts'
import { OutboxRepository } from '../../../../plugins/signature/outbox/outbox-repository.ts'
import type { SignatureOutboxTable } from '../../../../plugins/signature/outbox/outbox-tables.ts'
import { forEachEngine } from '../../../core/db/engines.ts'

/** A gate that a test opens once; `opened` resolves from then on. */
function gate() {
  let open!: () => void
  const opened = new Promise<void>((resolve) => { open = resolve })
  return { open, opened }
}

forEachEngine(t, 'a send that settles while the drain picks still wakes the next pick', async (database, _engine, t) => {
  await migrateToLatest(database.db, signatureMigrations)
  const silent = gate()
  const slow = gate()
  const slowSettled = gate()
  const received: string[] = []
  const arrived: Array<{ topic: string; resolve: () => void }> = []
  const sender: OutboxSender = {
    async send(row: SignatureOutboxTable): Promise<SendResult> {
      if (row.target === 'silent') await silent.opened
      if (row.target === 'slow') await slow.opened
      received.push(row.topic)
      for (const w of arrived.filter((w) => w.topic === row.topic)) w.resolve()
      return { ok: true }
    },
  }
  const arrival = (topic: string) => received.includes(topic) ? Promise.resolve() : new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${topic} never arrived; received ${JSON.stringify(received)}`)), 60_000)
    arrived.push({ topic, resolve: () => { clearTimeout(timer); resolve() } })
  })

  let picks = 0
  class HeldPicks extends OutboxRepository {
    override async due(now: string, staleBefore: string, limit: number): Promise<string[]> {
      const ids = await super.due(now, staleBefore, limit)
      // The second pick (after fast.0 settled) answers only once slow.0 has settled too, and a
      // few turns later, so slow.0's send has left the set the drain waits on.
      if (++picks === 2) {
        slow.open()
        await slowSettled.opened
        for (let i = 0; i < 5; i++) await new Promise((resolve) => setImmediate(resolve))
      }
      return ids
    }
    override async settle(...args: Parameters<OutboxRepository['settle']>) {
      const kept = await super.settle(...args)
      if (args[0].topic === 'slow.0') slowSettled.open()
      return kept
    }
  }
  const repository = new HeldPicks(database.db)
  const dispatcher = new OutboxDispatcher({ repository, senders: { mail: sender, webhook: sender }, retry: { baseMs: 1_000, capMs: 60_000, giveUpAfterMs: 86_400_000 }, staleClaimMs: 120_000, batchSize: 20 })
  t.teardown(() => { silent.open(); slow.open(); return dispatcher.stop() })
  const write = (target: string, count: number) => database.db.transaction().execute((tx: any) =>
    repository.insert(tx, Array.from({ length: count }, (_, i) => ({ channel: 'webhook' as const, topic: `${target}.${i}`, target, payload: {} })), new Date().toISOString()))
  await write('silent', 1)
  await write('fast', 1)
  await write('slow', 2)

  const pass = dispatcher.runOnce()
  await arrival('slow.1')
  t.same(received, ['fast.0', 'slow.0', 'slow.1'], 'the slow target\'s next row went while the silent one still waits')
  t.ok(picks >= 3, `a pick after the held one (${picks} picks)`)
  silent.open()
  const result = await pass
  t.equal(result.sent, 4, 'the pass sent all four')
})
