import type { Kysely, Migration } from 'kysely'

// Signing a slot of a record again is never silent: the new version keeps the reason its signer
// gave (null for a first signature and for every row written before this migration).
export const signingAgainKeepsItsReason: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema.alterTable('digital_signatures').addColumn('resign_reason', 'varchar(1000)').execute()
  },
  async down(db: Kysely<unknown>) {
    await db.schema.alterTable('digital_signatures').dropColumn('resign_reason').execute()
  },
}
