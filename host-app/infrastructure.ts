import path from 'node:path'
import type { Redis } from 'ioredis'
import { sql } from 'kysely'
import type { AppEnv } from '../config/app.ts'
import { openDatabase, watchRedis, type Database, type FaultLog } from '../core/index.ts'

export interface Infrastructure {
  database: Database<any>
  redis?: Redis
  close(): Promise<void>
}

/**
 * A command fails at once while Redis is disconnected (no offline queue, no retry of the command)
 * and within a second when it does not answer; the connection itself is retried forever, at most
 * every 2 s. Its users decide what a failed command means (the login throttle counts locally).
 */
const REDIS_FAIL_FAST = {
  connectTimeout: 2000,
  commandTimeout: 1000,
  maxRetriesPerRequest: 0,
  enableOfflineQueue: false,
  retryStrategy: (attempt: number) => Math.min(attempt * 200, 2000),
} as const

const redact = (url: string) => url.replace(/\/\/[^@/]*@/, '//***@')

/**
 * The engines the app runs on, opened and checked once at boot: an unreachable PostgreSQL or
 * Redis stops the boot at once with a message naming it, instead of failing on the first request.
 */
export async function openInfrastructure(env: AppEnv, faults: FaultLog): Promise<Infrastructure> {
  const database = openDatabase<any>(env.DATABASE_URL
    ? {
        url: env.DATABASE_URL,
        preparedStatements: env.DATABASE_PREPARED_STATEMENTS,
        listen: env.DATABASE_LISTEN,
        timeouts: { connectMs: env.DATABASE_CONNECT_TIMEOUT_MS, statementMs: env.DATABASE_STATEMENT_TIMEOUT_MS, lockMs: env.DATABASE_LOCK_TIMEOUT_MS },
        ...(env.DATABASE_SCHEMA ? { schema: env.DATABASE_SCHEMA } : {}),
      }
    : { sqliteFile: path.join(env.STORAGE_PATH, 'database', 'app.sqlite') })
  database.reportFaultsTo(faults)
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
    redis = watchRedis(new Redis(env.REDIS_URL, { lazyConnect: true, ...REDIS_FAIL_FAST }), faults)
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
