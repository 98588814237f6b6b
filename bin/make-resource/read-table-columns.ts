import { existsSync } from 'node:fs'
import { openDatabase } from '../../core/index.ts'
import { planColumn, type ColumnPlan } from './column-kinds.ts'
import { ERR_TABLE_NOT_FOUND } from './generator-errors.ts'

export interface DatabaseChoice {
  /** postgres://...: PostgreSQL; absent: the SQLite file. */
  url?: string
  /** PostgreSQL: the schema the table is in (default public). */
  schema?: string
  sqliteFile: string
}

/** The table's columns through Kysely's introspection, on the database the app is configured with. */
export async function readTableColumns(choice: DatabaseChoice, table: string): Promise<{ engine: 'sqlite' | 'postgres'; columns: ColumnPlan[] }> {
  // Opening SQLite creates the file: a missing one means no table, and nothing is made.
  if (!choice.url && !existsSync(choice.sqliteFile)) {
    throw ERR_TABLE_NOT_FOUND(`No table ${table}: the SQLite database ${choice.sqliteFile} does not exist (set STORAGE_PATH, or DATABASE_URL for PostgreSQL)`)
  }
  const database = openDatabase<unknown>(choice.url
    ? { url: choice.url, listen: false, ...(choice.schema ? { schema: choice.schema } : {}) }
    : { sqliteFile: choice.sqliteFile })
  try {
    const tables = await database.db.introspection.getTables()
    const schema = choice.url ? (choice.schema ?? 'public') : undefined
    const found = tables.find((t) => t.name === table && !t.isView && (schema === undefined || t.schema === schema))
    if (!found) {
      const names = tables.filter((t) => !t.isView && (schema === undefined || t.schema === schema)).map((t) => t.name).sort()
      throw ERR_TABLE_NOT_FOUND(`No table ${table} in the ${choice.url ? `PostgreSQL schema ${schema}` : `SQLite database ${choice.sqliteFile}`}; its tables: ${names.join(', ') || 'none'}`)
    }
    return { engine: database.engine, columns: found.columns.map(planColumn) }
  } finally {
    await database.close()
  }
}
