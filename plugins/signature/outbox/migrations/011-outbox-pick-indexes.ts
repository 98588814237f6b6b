import { sql, type Kysely, type Migration } from 'kysely'

/**
 * The dispatcher's pick (repository.due, and the claim) wants the oldest due pending row of each
 * target. With the first indexes (status, next_attempt_at) and (channel, target, created_at) the
 * "no earlier pending row of this target" probe read every row its target ever had, sent ones
 * included: ~0.3-0.8 s a pick with 4,500 pending rows over 20 targets and 50,000 sent (6-15 s in
 * the soak). Partial indexes over pending rows only make the probe one index lookup and
 * the outer scan an ordered walk; they stay as small as the backlog, whatever the history.
 */
export const addOutboxPickIndexes: Migration = {
  async up(db: Kysely<any>) {
    await db.schema.createIndex('signature_outbox_pending_due').on('signature_outbox').columns(['next_attempt_at', 'id']).where(sql.ref('status'), '=', 'pending').execute()
    await db.schema.createIndex('signature_outbox_pending_target').on('signature_outbox').columns(['channel', 'target', 'id', 'next_attempt_at']).where(sql.ref('status'), '=', 'pending').execute()
    await db.schema.dropIndex('signature_outbox_due').execute()
  },
  async down(db: Kysely<any>) {
    await db.schema.createIndex('signature_outbox_due').on('signature_outbox').columns(['status', 'next_attempt_at']).execute()
    await db.schema.dropIndex('signature_outbox_pending_target').execute()
    await db.schema.dropIndex('signature_outbox_pending_due').execute()
  },
}
