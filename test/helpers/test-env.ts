import { randomBytes } from 'node:crypto'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import type { AppEnv } from '../../config/app.ts'

/**
 * What one test app needs to be alone: its own storage folder and, when the suite runs against
 * PostgreSQL (DATABASE_URL set), its own schema. `cleanup` removes both: call it after closing the app.
 */
export async function isolatedEnv(): Promise<{ env: Partial<AppEnv>; cleanup: () => Promise<void> }> {
  // Imported only for a PostgreSQL run: a test may check that an app on SQLite never loads pg.
  const { default: pg } = process.env.DATABASE_URL ? await import('pg') : { default: undefined }
  const storage = await mkdtemp(path.join(tmpdir(), 'app-test-'))
  const env: Partial<AppEnv> = { STORAGE_PATH: storage }
  const url = process.env.DATABASE_URL
  let schema: string | undefined
  if (url) {
    schema = `t_${randomBytes(6).toString('hex')}`
    const client = new pg!.Client({ connectionString: url })
    await client.connect()
    await client.query(`create schema "${schema}"`)
    await client.end()
    env.DATABASE_SCHEMA = schema
  }
  const cleanup = async () => {
    await rm(storage, { recursive: true, force: true })
    if (url && schema) {
      const client = new pg!.Client({ connectionString: url })
      await client.connect()
      await client.query(`drop schema if exists "${schema}" cascade`)
      await client.end()
    }
  }
  return { env, cleanup }
}
