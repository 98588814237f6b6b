import { type Kysely, type Migration } from 'kysely'

// When a session's signers were last reminded: the rate limit of "Remind" is one conditional
// UPDATE on this column, so it holds across instances sharing one PostgreSQL.
export const addSessionReminders: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema.alterTable('signing_sessions').addColumn('reminded_at', 'varchar(32)').execute()
  },
  async down(db: Kysely<unknown>) {
    await db.schema.alterTable('signing_sessions').dropColumn('reminded_at').execute()
  },
}
