// Issue 20, item 5: the outbox does not grow forever. Messages sent or given up longer ago than
// the retention go, with their attempts and their .eml copies, in batches; pending messages (a
// retry still owes its send) and recent ones stay; 0 days keeps everything.
import { randomUUID } from 'node:crypto'
import { mkdtemp, readdir, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import t from 'tap'
import { migrateToLatest } from '../../../../core/db/migrate.ts'
import { LocalDisk } from '../../../../core/storage/disk.ts'
import { signatureMigrations } from '../../../../plugins/signature/database/migrations/index.ts'
import { emlKey } from '../../../../plugins/signature/mail/mail-transport.ts'
import { OutboxRepository } from '../../../../plugins/signature/outbox/outbox-repository.ts'
import { pruneOutbox } from '../../../../plugins/signature/outbox/outbox-retention.ts'
import { forEachEngine } from '../../../core/db/engines.ts'

const NOW = new Date('2026-06-30T12:00:00.000Z')
const daysAgo = (days: number) => new Date(NOW.getTime() - days * 24 * 3_600_000).toISOString()

forEachEngine(t, 'finished messages older than the retention go with their attempts and .eml files; the rest stay', async (database, _engine, t) => {
  await migrateToLatest(database.db, signatureMigrations)
  const repository = new OutboxRepository(database.db)
  const dir = await mkdtemp(path.join(tmpdir(), 'outbox-mail-'))
  t.teardown(() => rm(dir, { recursive: true, force: true }))
  const mailDisk = new LocalDisk('mail', dir)

  // [status, last changed days ago, how many]: 1,100 old sent rows need three batches of 500.
  const plan: Array<[string, number, number]> = [['sent', 100, 1_100], ['failed', 95, 2], ['pending', 200, 2], ['sent', 10, 3], ['failed', 89, 1]]
  const kinds: Array<{ id: string; status: string; age: number }> = []
  for (const [status, age, count] of plan) {
    const rows = await database.db.transaction().execute((tx: any) => repository.insert(tx, Array.from({ length: count }, (_, i) => ({ channel: 'mail' as const, topic: 'invitation', target: `u-${i}`, payload: {} })), daysAgo(age + 1)))
    const ids = rows.map((r) => r.id)
    for (let i = 0; i < ids.length; i += 500) {
      await database.db.updateTable('signature_outbox').set({ status, updated_at: daysAgo(age) }).where('id', 'in', ids.slice(i, i + 500)).execute()
    }
    for (const id of ids) kinds.push({ id, status, age })
  }
  const sample = kinds.filter((_, i) => i % 50 === 0 || i >= 1_100)
  for (const { id } of sample) {
    await database.db.insertInto('signature_outbox_attempts').values({ id: randomUUID(), outbox_id: id, attempt: 1, started_at: daysAgo(100), duration_ms: 5, status_code: null, ok: 1, error: null }).execute()
    await mailDisk.put(emlKey(id), Buffer.from('Subject: x\r\n\r\nbody'))
  }

  t.equal(await pruneOutbox({ repository, copies: { disk: mailDisk, keyOf: emlKey }, retentionDays: 0, now: NOW }), 0, '0 days: nothing goes')

  const removed = await pruneOutbox({ repository, copies: { disk: mailDisk, keyOf: emlKey }, retentionDays: 90, now: NOW })
  t.equal(removed, 1_102, 'the 1,100 old sent and 2 old failed rows, over three batches')
  const left = await database.db.selectFrom('signature_outbox').select(['id', 'status']).execute()
  const expectLeft = kinds.filter((k) => k.status === 'pending' || k.age < 90).map((k) => k.id).sort()
  t.same(left.map((r: any) => r.id).sort(), expectLeft, 'pending rows (however old) and rows within the retention stay')
  const attemptsLeft = (await database.db.selectFrom('signature_outbox_attempts').select('outbox_id').execute()).map((r: any) => r.outbox_id).sort()
  t.same(attemptsLeft, sample.filter((k) => expectLeft.includes(k.id)).map((k) => k.id).sort(), 'attempts go with their rows')
  const files = (await readdir(dir)).sort()
  t.same(files, sample.filter((k) => expectLeft.includes(k.id)).map((k) => emlKey(k.id)).sort(), '.eml copies go with their rows')
  t.equal(await pruneOutbox({ repository, copies: { disk: mailDisk, keyOf: emlKey }, retentionDays: 90, now: NOW }), 0, 'again: nothing more')
})
