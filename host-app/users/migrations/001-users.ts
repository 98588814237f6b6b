import type { Kysely, Migration } from 'kysely'
import { usersListIndexes } from './002-users-list-indexes.ts'
import { usersListIndexesCoverTheirColumns } from './003-users-list-indexes-cover-their-columns.ts'
import { usersEmailSearchIndexes } from './004-users-email-search-indexes.ts'

export const createUsers: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('users')
      .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
      .addColumn('name', 'varchar(120)', (c) => c.notNull())
      // Stored lower-cased, so the unique constraint is the case-insensitive rule.
      .addColumn('email', 'varchar(254)', (c) => c.notNull().unique())
      .addColumn('role', 'varchar(40)', (c) => c.notNull())
      .addColumn('password_hash', 'varchar(255)', (c) => c.notNull())
      .addColumn('session_version', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
      .execute()
    await db.schema.createIndex('users_name').on('users').column('name').execute()
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('users').execute()
  },
}

export const userMigrations: Record<string, Migration> = { 'users-001-users': createUsers, 'users-002-list-indexes': usersListIndexes, 'users-003-list-indexes-cover-their-columns': usersListIndexesCoverTheirColumns, 'users-004-email-search-indexes': usersEmailSearchIndexes }
