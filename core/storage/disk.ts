import { readFile, rm, stat } from 'node:fs/promises'
import { atomicCreateFile, atomicWrite, atomicWriteFile } from './atomic-write.ts'
import { resolveInside } from './safe-path.ts'
import type { Kysely } from 'kysely'

/**
 * A write that commits with the row pointing at it. On a folder the file is written at once and
 * `discard` removes it again when the row's transaction fails (the storage sweep removes what a
 * crash left in between); in the database the object is inserted by `commitIn`, inside the row's
 * own transaction, so the two commit or roll back together and a crash leaves nothing.
 */
export interface StagedObject {
  readonly key: string
  /** Inside the transaction that writes the row pointing at `key`. */
  commitIn(transaction: Kysely<any>): Promise<void>
  /** The row's transaction failed or never ran: the object must not stay. */
  discard(): Promise<void>
}

/** Where a disk keeps its objects: files under a folder, or rows of PostgreSQL (database-disk.ts). */
export type StorageDriver = 'disk' | 'database'

/** A folder that keys (paths with '/' separators) can never leave. */
export interface Disk {
  readonly name: string
  readonly driver: StorageDriver
  /** The folder of the files (the disk driver), or of the local spool of materialized objects (the database driver). */
  readonly root: string
  /**
   * Absolute path of a key on a folder disk; throws UnsafePathError for a key that could leave
   * the root. A database disk has no such path and throws: ask `localPath`.
   */
  path(key: string): string
  /** A file holding the key's bytes, for code that reads a file name (mupdf, a browser): the file itself on a folder, a spool copy for the database. */
  localPath(key: string): Promise<string>
  /** Writes `bytes` under `key` to commit with a row (StagedObject). */
  stage(key: string, bytes: Uint8Array): Promise<StagedObject>
  put(key: string, bytes: Uint8Array | string): Promise<string>
  /** Writes only if the key holds nothing yet; false (nothing written) when it does. */
  putIfAbsent(key: string, bytes: Uint8Array | string): Promise<boolean>
  /** For writers that need a file name (a browser printing to a path): they write the temp file. */
  putWith(key: string, write: (temporaryPath: string) => Promise<unknown>): Promise<string>
  get(key: string): Promise<Buffer>
  exists(key: string): Promise<boolean>
  delete(key: string): Promise<void>
}

export class LocalDisk implements Disk {
  readonly driver = 'disk'
  constructor(readonly name: string, readonly root: string) {}

  path(key: string): string {
    return resolveInside(this.root, key)
  }

  async localPath(key: string): Promise<string> {
    return this.path(key)
  }

  async stage(key: string, bytes: Uint8Array): Promise<StagedObject> {
    await this.put(key, bytes)
    return { key, commitIn: async () => {}, discard: () => this.delete(key) }
  }

  // async, so a refused key is a rejected promise like every other failure of a write.
  async put(key: string, bytes: Uint8Array | string): Promise<string> {
    return atomicWriteFile(this.path(key), bytes)
  }

  async putIfAbsent(key: string, bytes: Uint8Array | string): Promise<boolean> {
    return atomicCreateFile(this.path(key), bytes)
  }

  async putWith(key: string, write: (temporaryPath: string) => Promise<unknown>): Promise<string> {
    return atomicWrite(this.path(key), write)
  }

  async get(key: string): Promise<Buffer> {
    return readFile(this.path(key))
  }

  async exists(key: string): Promise<boolean> {
    try {
      return (await stat(this.path(key))).isFile()
    } catch {
      return false
    }
  }

  async delete(key: string): Promise<void> {
    await rm(this.path(key), { force: true })
  }
}
