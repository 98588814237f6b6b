import type { Kysely, Migration } from 'kysely'

// What the sender says to the signers, and the day after which the session can no longer be signed.
export const addSessionMessageAndDueDate: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema.alterTable('signing_sessions').addColumn('message', 'varchar(2000)').execute()
    await db.schema.alterTable('signing_sessions').addColumn('due_at', 'varchar(32)').execute()
  },
  async down(db: Kysely<unknown>) {
    await db.schema.alterTable('signing_sessions').dropColumn('due_at').execute()
    await db.schema.alterTable('signing_sessions').dropColumn('message').execute()
  },
}
