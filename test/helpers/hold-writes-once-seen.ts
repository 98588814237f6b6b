// Crash tests stop a server process between two of its commits: the first is seen, the second
// must wait. A look that sees the first commit and then takes a lock loses, on a fast machine,
// to a second commit that lands in between. Here each look is made while the lock is held, so
// what it sees stays true until release: SQLite, the database's write lock (BEGIN IMMEDIATE);
// PostgreSQL, a SHARE lock on `lockTable`, which lets the first commit's table through (the
// caller picks one that only the second commit writes).
import path from 'node:path'
import { setTimeout as delay } from 'node:timers/promises'
import BetterSqlite3 from 'better-sqlite3'
import pg from 'pg'

export interface Look {
  /** The table and row looked at (by `id`). */
  table: string
  id: string
  /** PostgreSQL: the table whose writers are held; the second commit must write it, the first must not. */
  lockTable: string
  /** 'hold' keeps the lock; 'wait' releases it and looks again 1 ms later; throw when the moment has passed. */
  state(row: Record<string, unknown>): 'hold' | 'wait'
}

/** Takes the lock at the first look whose row `state` holds at, within `withinMs`; returns its release. */
export async function holdWritesOnceSeen(env: Record<string, string | undefined>, look: Look, withinMs = 60_000): Promise<() => Promise<void>> {
  const lock = env.DATABASE_URL ? await postgresLock(env, look) : sqliteLock(env, look)
  try {
    for (const started = Date.now(); Date.now() - started < withinMs; await delay(1)) {
      const row = await lock.take()
      if (row === undefined) continue
      if (look.state(row) === 'hold') return lock.release
      await lock.drop()
    }
  } catch (error) {
    await lock.close()
    throw error
  }
  await lock.close()
  throw new Error(`${look.table} ${look.id} never reached the state looked for within ${withinMs} ms`)
}

interface Lock {
  /** Takes the lock and reads the row under it; undefined when the lock is busy. */
  take(): Promise<Record<string, unknown> | undefined>
  drop(): Promise<void>
  release(): Promise<void>
  close(): Promise<void>
}

function sqliteLock(env: Record<string, string | undefined>, look: Look): Lock {
  // timeout 0: a busy lock is looked at again next time instead of queuing behind the server.
  const connection = new BetterSqlite3(path.join(env.STORAGE_PATH!, 'database', 'app.sqlite'), { timeout: 0 })
  const read = connection.prepare(`SELECT * FROM ${look.table} WHERE id = ?`)
  let held = false
  const drop = async () => { if (held) connection.exec('ROLLBACK'); held = false }
  return {
    async take() {
      try { connection.exec('BEGIN IMMEDIATE') } catch (error) {
        if ((error as { code?: string }).code === 'SQLITE_BUSY') return undefined
        throw error
      }
      held = true
      return read.get(look.id) as Record<string, unknown>
    },
    drop,
    async release() { await drop(); if (connection.open) connection.close() },
    async close() { await drop(); if (connection.open) connection.close() },
  }
}

async function postgresLock(env: Record<string, string | undefined>, look: Look): Promise<Lock> {
  const client = new pg.Client({ connectionString: env.DATABASE_URL })
  await client.connect()
  const schema = `"${env.DATABASE_SCHEMA}"`
  let held = false
  let ended = false
  const drop = async () => { if (held) await client.query('ROLLBACK'); held = false }
  const close = async () => { if (ended) return; await drop(); ended = true; await client.end() }
  return {
    async take() {
      await client.query('BEGIN')
      held = true
      await client.query(`LOCK TABLE ${schema}.${look.lockTable} IN SHARE MODE`)
      // Read committed: this statement's snapshot starts after the lock is granted.
      return (await client.query(`SELECT * FROM ${schema}.${look.table} WHERE id = $1`, [look.id])).rows[0]
    },
    drop,
    release: close,
    close,
  }
}
