import path from 'node:path'
import type { Database } from '../db/database.ts'
import { DatabaseDisk } from './database-disk.ts'
import type { Disk, StorageDriver } from './disk.ts'
import { Disks } from './disks.ts'
import { ERR_STORAGE_DRIVER_NEEDS_POSTGRES, STORAGE_DRIVER_NEEDS_POSTGRES_MESSAGE, StorageConfigurationError } from './storage-errors.ts'

/**
 * The named disk on the configured driver: a folder under the storage path (the default), or
 * rows of PostgreSQL shared by every instance, with a local spool under the storage path for the
 * code that needs a file. The database driver on SQLite stops the boot: it would share nothing.
 */
export function openDisk(options: { driver: StorageDriver; name: string; storagePath: string; database: Pick<Database<any>, 'db' | 'engine'> }): Disk {
  if (options.driver === 'disk') return new Disks(options.storagePath).disk(options.name)
  assertDatabaseDriverPossible(options.database.engine)
  return new DatabaseDisk(options.name, options.database.db, path.join(path.resolve(options.storagePath), 'spool', options.name))
}

export function assertDatabaseDriverPossible(engine: string): void {
  if (engine !== 'postgres') throw new StorageConfigurationError(ERR_STORAGE_DRIVER_NEEDS_POSTGRES, STORAGE_DRIVER_NEEDS_POSTGRES_MESSAGE)
}
