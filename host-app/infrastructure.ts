import path from 'node:path'
import type { Redis } from 'ioredis'
import { sql } from 'kysely'
import type { AppEnv } from '../config/app.ts'
import { openDatabase, type Database } from '../core/index.ts'

export interface Infrastructure {
  database: Database<any>
  redis?: Redis
  close(): Promise<void>
}

const redact = (url: string) => url.replace(/\/\/[^@/]*@/, '//***@')

/**
 * The engines the app runs on, opened and checked once at boot: an unreachable PostgreSQL or
 * Redis stops the boot at once with a message naming it, instead of failing on the first request.
 */
export async function openInfrastructure(env: AppEnv): Promise<Infrastructure> {
  const database = openDatabase<any>(env.DATABASE_URL
    ? { url: env.DATABASE_URL, preparedStatements: env.DATABASE_PREPARED_STATEMENTS, listen: env.DATABASE_LISTEN, ...(env.DATABASE_SCHEMA ? { schema: env.DATABASE_SCHEMA } : {}) }
    : { sqliteFile: path.join(env.STORAGE_PATH, 'database', 'app.sqlite') })
  try {
    await sql`select 1`.execute(database.db)
  } catch (error) {
    await database.close().catch(() => {})
    throw new Error(`Cannot reach PostgreSQL at ${redact(env.DATABASE_URL ?? '')} (DATABASE_URL): ${(error as Error).message}`)
  }
  let redis: Redis | undefined
  if (env.REDIS_URL) {
    // Imported only when configured: a single instance without Redis never loads the client.
    const { Redis } = await import('ioredis')
    redis = new Redis(env.REDIS_URL, { lazyConnect: true, connectTimeout: 3000, maxRetriesPerRequest: 2 })
    try {
      await redis.connect()
      await redis.ping()
    } catch (error) {
      redis.disconnect()
      await database.close()
      throw new Error(`Cannot reach Redis at ${redact(env.REDIS_URL)} (REDIS_URL): ${(error as Error).message}`)
    }
  }
  return {
    database,
    redis,
    async close() {
      redis?.disconnect()
      await database.close()
    },
  }
}
