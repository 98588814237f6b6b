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
