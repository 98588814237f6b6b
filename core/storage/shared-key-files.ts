// Key files (a CA, a timestamp authority, an encryption key) shared by instances that share a
// database but no folder. The loaders keep reading and creating files as they always did; around
// them, under one PostgreSQL advisory lock, the shared copies are first written into the local
// folder, and the files the loaders created are then published for the others. The lock makes
// two first boots at once agree: the second waits, then finds the first one's keys.
import { mkdir, readFile, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { sql } from 'kysely'
import type { DatabaseDisk } from './database-disk.ts'
import { ERR_SHARED_KEY_MISMATCH, StorageConfigurationError } from './storage-errors.ts'
import { assertSafeKey } from './safe-path.ts'

const LOCK = 'stored_objects: key files'

/** Runs `load` (which reads or creates `names` in `folder`) so every instance ends up with the same files. */
export async function withSharedKeyFiles<T>(store: DatabaseDisk, folder: string, names: readonly string[], load: () => Promise<T>): Promise<T> {
  for (const name of names) assertSafeKey(name)
  return store.db.connection().execute(async (connection) => {
    // Per schema: apps in other schemas of the same database (tests, tenants) do not wait on it.
    await sql`select pg_advisory_lock(hashtext(current_schema() || ${LOCK}))`.execute(connection)
    try {
      const shared = store.on(connection)
      for (const name of names) {
        const bytes = await shared.get(`keys/${name}`).catch(() => null)
        if (bytes) await placeLocally(path.join(folder, name), bytes)
      }
      const result = await load()
      for (const name of names) {
        const local = await readFile(path.join(folder, name)).catch(() => null)
        if (local) await shared.putIfAbsent(`keys/${name}`, local)
      }
      return result
    } finally {
      await sql`select pg_advisory_unlock(hashtext(current_schema() || ${LOCK}))`.execute(connection).catch(() => {})
    }
  })
}

/** The shared key, written as the loaders would (0600), unless this folder already holds it. */
async function placeLocally(file: string, bytes: Buffer): Promise<void> {
  const local = await readFile(file).catch(() => null)
  if (local?.equals(bytes)) return
  // Which one signed what is unknowable from here: an operator decides, the boot does not guess.
  if (local) throw new StorageConfigurationError(ERR_SHARED_KEY_MISMATCH, `${file} differs from the key the other instances share through the database; move it away to use the shared one`)
  await mkdir(path.dirname(file), { recursive: true, mode: 0o700 })
  await writeFile(file, bytes, { mode: 0o600, flag: 'wx' })
}
