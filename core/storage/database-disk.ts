// A disk whose objects are rows of PostgreSQL (stored_objects), for instances that share a
// database but no folder. The bytes are a bytea column: one statement writes or reads a whole
// object, and a write can join the transaction of the row that points at it (stage/commitIn),
// which a file never could. Large objects would stream, but cannot be written by an ordinary
// INSERT inside that transaction as simply, and were slower in bench/storage-driver.bench.ts
// (their reads come back as hex text too). Bytes go out as one binary parameter and come back
// as binary COPY data (core/db/postgres-binary-copy.ts), each way once and unencoded.
import { createHash } from 'node:crypto'
import { readFile, rm } from 'node:fs/promises'
import { sql, type Kysely } from 'kysely'
import { binaryCopyOf } from '../db/postgres-binary-copy.ts'
import { temporaryPathFor } from './atomic-write.ts'
import type { Disk, StagedObject } from './disk.ts'
import { ObjectSpool } from './object-spool.ts'
import { assertSafeKey } from './safe-path.ts'

export const STORED_OBJECTS_TABLE = 'stored_objects'

/** A missing object fails as a missing file does, so callers that look for ENOENT keep working. */
function notFound(disk: string, key: string): NodeJS.ErrnoException {
  return Object.assign(new Error(`ENOENT: no stored object ${JSON.stringify(key)} on disk ${JSON.stringify(disk)}`), { code: 'ENOENT' })
}

function asBuffer(bytes: Uint8Array | string): Buffer {
  return typeof bytes === 'string' ? Buffer.from(bytes) : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)
}

export class DatabaseDisk implements Disk {
  readonly driver = 'database'
  readonly #spool: ObjectSpool

  /** `spoolRoot`: a local folder of materialized copies (localPath); a cache, never a source of truth. */
  constructor(readonly name: string, readonly db: Kysely<any>, spoolRoot: string) {
    assertSafeKey(name)
    this.#spool = new ObjectSpool(spoolRoot)
  }

  get root(): string {
    return this.#spool.root
  }

  /** The same objects through another connection (a transaction, a connection holding a lock). */
  on(db: Kysely<any>): DatabaseDisk {
    return new DatabaseDisk(this.name, db, this.#spool.root)
  }

  path(key: string): string {
    throw new Error(`Disk ${JSON.stringify(this.name)} keeps ${JSON.stringify(key)} in the database: ask localPath() for a file`)
  }

  async localPath(key: string): Promise<string> {
    assertSafeKey(key)
    const row = await this.db.selectFrom(STORED_OBJECTS_TABLE).select('sha256').where('disk', '=', this.name).where('key', '=', key).executeTakeFirst()
    if (!row) throw notFound(this.name, key)
    return this.#spool.materialize(key, row.sha256 as string, () => this.get(key))
  }

  async put(key: string, bytes: Uint8Array | string): Promise<string> {
    await this.#write(this.db, key, asBuffer(bytes), 'replace')
    return key
  }

  async putIfAbsent(key: string, bytes: Uint8Array | string): Promise<boolean> {
    return this.#write(this.db, key, asBuffer(bytes), 'keep')
  }

  async putWith(key: string, write: (temporaryPath: string) => Promise<unknown>): Promise<string> {
    assertSafeKey(key)
    const temporary = temporaryPathFor(await this.#spool.scratchFile())
    try {
      await write(temporary)
      return await this.put(key, await readFile(temporary))
    } finally {
      await rm(temporary, { force: true })
    }
  }

  async stage(key: string, bytes: Uint8Array): Promise<StagedObject> {
    assertSafeKey(key)
    const buffer = asBuffer(bytes)
    // Nothing is written until the row's transaction writes it: a failure or a crash before the
    // commit leaves no object, so there is nothing to discard and nothing for a sweep to find.
    return { key, commitIn: async (transaction) => { await this.#write(transaction, key, buffer, 'replace') }, discard: async () => {} }
  }

  async get(key: string): Promise<Buffer> {
    assertSafeKey(key)
    // As binary COPY data, not a row: a row's bytea comes as hex text, twice the size, for the
    // server to encode and this process to decode. The name and the key are literals (COPY takes
    // no parameters), safe as both passed assertSafeKey.
    const rows = await binaryCopyOf(this.db, sql`select bytes from ${sql.table(STORED_OBJECTS_TABLE)} where disk = ${sql.lit(this.name)} and key = ${sql.lit(key)}`)
    const bytes = rows[0]?.[0]
    if (!bytes) throw notFound(this.name, key)
    return bytes
  }

  async exists(key: string): Promise<boolean> {
    assertSafeKey(key)
    const row = await this.db.selectFrom(STORED_OBJECTS_TABLE).select('key').where('disk', '=', this.name).where('key', '=', key).executeTakeFirst()
    return row !== undefined
  }

  async delete(key: string): Promise<void> {
    assertSafeKey(key)
    await this.db.deleteFrom(STORED_OBJECTS_TABLE).where('disk', '=', this.name).where('key', '=', key).execute()
  }

  /** Keys under `prefix` (e.g. 'keys/'), in order. */
  async list(prefix: string): Promise<string[]> {
    const rows = await this.db.selectFrom(STORED_OBJECTS_TABLE).select('key').where('disk', '=', this.name)
      .where('key', '>=', prefix).where('key', '<', `${prefix}\uffff`).orderBy('key').execute()
    return rows.map((r) => r.key as string)
  }

  /** Spool copies not used for `olderThanMs`: the database still has every one of them. */
  sweepSpool(olderThanMs: number, signal?: AbortSignal) {
    return this.#spool.sweep(olderThanMs, signal)
  }

  async #write(db: Kysely<any>, key: string, bytes: Buffer, existing: 'replace' | 'keep'): Promise<boolean> {
    assertSafeKey(key)
    const sha256 = createHash('sha256').update(bytes).digest('hex')
    const row = { disk: this.name, key, bytes, sha256, size: bytes.length, created_at: new Date().toISOString() }
    const result = await db.insertInto(STORED_OBJECTS_TABLE).values(row)
      .onConflict((oc) => existing === 'keep'
        ? oc.columns(['disk', 'key']).doNothing()
        // excluded.*, not the values again: each would be one more parameter, the bytes sent twice.
        : oc.columns(['disk', 'key']).doUpdateSet((eb) => ({ bytes: eb.ref('excluded.bytes'), sha256: eb.ref('excluded.sha256'), size: eb.ref('excluded.size'), created_at: eb.ref('excluded.created_at') })))
      .executeTakeFirst()
    return Number(result.numInsertedOrUpdatedRows ?? 0n) > 0
  }
}
