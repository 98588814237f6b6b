// Issue 36 item 7: with ~4,500 pending messages the dispatcher's pick took 6-15 s, re-run by
// every instance: its "no earlier pending row of this target" probe walked every row the target
// ever had (sent ones included), and the outer scan sorted the whole backlog. The pick gives the
// first due row of each target (a row waiting for its retry holds nobody up; one being sent
// holds its target), and on PostgreSQL its plan reads only pending rows through the partial
// indexes of migration 011 once autovacuum has been by: no sequential scan, no row read and
// thrown away by a filter.
import t from 'tap'
import { migrateToLatest } from '../../../../core/db/migrate.ts'
import { signatureMigrations } from '../../../../plugins/signature/database/migrations/index.ts'
import { OutboxRepository } from '../../../../plugins/signature/outbox/outbox-repository.ts'
import { forEachEngine } from '../../../core/db/engines.ts'
import { sql } from 'kysely'

const NOW = '2026-03-01T10:00:00.000Z'
const LATER = '2026-03-01T11:00:00.000Z'
const STALE_BEFORE = '2026-03-01T09:58:00.000Z'

forEachEngine(t, 'the pick: the first due row of each target, whatever the history', async (database, engine, t) => {
  await migrateToLatest(database.db, signatureMigrations)
  const repository = new OutboxRepository(database.db)
  const db = database.db
  const write = async (target: string, count: number, status: 'pending' | 'sent' = 'pending') => {
    const ids: string[] = []
    for (let i = 0; i < count; i += 500) {
      const rows = await db.transaction().execute((tx: any) => repository.insert(tx, Array.from({ length: Math.min(500, count - i) }, () => ({ channel: 'webhook' as const, topic: 't', target, payload: {} })), NOW))
      ids.push(...rows.map((r) => r.id))
    }
    if (status === 'sent') for (let i = 0; i < ids.length; i += 500) await db.updateTable('signature_outbox').set({ status: 'sent' }).where('id', 'in', ids.slice(i, i + 500)).execute()
    return ids
  }
  // History first (sent), then a backlog whose oldest rows all belong to one target.
  for (let k = 0; k < 4; k++) await write(`target-${k}`, 3000, 'sent')
  const busy = await write('target-0', 2000)
  const waiting = await write('target-1', 2)
  const claimed = await write('target-2', 2)
  const plain = await write('target-3', 2)
  await db.updateTable('signature_outbox').set({ next_attempt_at: LATER }).where('id', '=', waiting[0]!).execute()
  await db.updateTable('signature_outbox').set({ claim_token: 'x', claimed_at: NOW }).where('id', '=', claimed[0]!).execute()

  const ids = await repository.due(NOW, STALE_BEFORE, 20)
  t.same(ids.sort(), [busy[0], waiting[1], plain[0]].sort(), 'one per target: its oldest due row; a row waiting for its retry does not block; a claimed one does')
  t.same(await repository.due(NOW, STALE_BEFORE, 1), [busy[0]], 'oldest first')

  if (engine !== 'postgres') return
  // The steady state autovacuum keeps (PostgreSQL 13+ vacuums tables that only get inserts too):
  // statistics and a visibility map, without which any plan reads the heap.
  await sql`vacuum analyze signature_outbox`.execute(db)
  const compiled = repository.dueQuery(NOW, STALE_BEFORE, 20).compile()
  const explained = await sql.raw(`explain (analyze, format json) ${compiled.sql.replace(/\$(\d+)/g, (_, n) => `'${String(compiled.parameters[Number(n) - 1])}'${/^\d+$/.test(String(compiled.parameters[Number(n) - 1])) ? '::int' : ''}`)}`).execute(db)
  const plan = (explained.rows[0] as any)['QUERY PLAN'][0].Plan
  const nodes: any[] = []
  const walk = (node: any) => { nodes.push(node); for (const child of node.Plans ?? []) walk(child) }
  walk(plan)
  const seq = nodes.filter((n) => n['Node Type'] === 'Seq Scan')
  t.same(seq.map((n) => n['Relation Name']), [], 'no sequential scan')
  const thrownAway = nodes.reduce((sum, n) => sum + (n['Rows Removed by Filter'] ?? 0) + (n['Rows Removed by Index Recheck'] ?? 0), 0)
  t.ok(thrownAway <= 2, `rows read and thrown away: ${thrownAway} (of 12,000 sent and 2,006 pending)`)
  const indexes = nodes.filter((n) => n['Index Name']).map((n) => n['Index Name'])
  t.ok(indexes.includes('signature_outbox_pending_target'), `the pending rows' index is used (${indexes.join(', ')})`)
})
