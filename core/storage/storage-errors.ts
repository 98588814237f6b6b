import { ERR_STORAGE_FULL, isAppError } from '../http/errors.ts'

// ENOSPC: the file system is full; EDQUOT: the user's quota is. Both mean "free space, then retry".
const FULL = new Set(['ENOSPC', 'EDQUOT'])

export function isStorageFull(error: unknown): boolean {
  return FULL.has((error as NodeJS.ErrnoException)?.code ?? '')
}

/** A write's failure as the caller should see it: a full disk becomes ERR_STORAGE_FULL (507). */
export function storageFault(error: unknown): unknown {
  if (isAppError(error) || !isStorageFull(error)) return error
  return ERR_STORAGE_FULL(undefined, { cause: error })
}

/** A boot that cannot work as configured; `code` is stable, for scripts and for tests. */
export class StorageConfigurationError extends Error {
  constructor(readonly code: string, message: string) {
    super(`${code}: ${message}`)
    this.name = 'StorageConfigurationError'
  }
}

export const ERR_STORAGE_DRIVER_NEEDS_POSTGRES = 'ERR_STORAGE_DRIVER_NEEDS_POSTGRES'
export const ERR_SHARED_KEY_MISMATCH = 'ERR_SHARED_KEY_MISMATCH'

/** The one message for STORAGE_DRIVER=database without PostgreSQL, at every place that can see it. */
export const STORAGE_DRIVER_NEEDS_POSTGRES_MESSAGE = 'STORAGE_DRIVER=database keeps documents in PostgreSQL: set DATABASE_URL to a postgres:// URL, or use STORAGE_DRIVER=disk'
