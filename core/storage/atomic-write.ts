import { randomBytes } from 'node:crypto'
import { link, mkdir, open, rename, rm, rmdir, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { storageFault } from './storage-errors.ts'

const TEMPORARY_NAME = /^\..+\.[0-9a-f]{12}\.tmp$/

/** A temporary name next to the destination: same directory, so the rename is atomic. */
export function temporaryPathFor(destination: string): string {
  return path.join(path.dirname(destination), `.${path.basename(destination)}.${randomBytes(6).toString('hex')}.tmp`)
}

/** A file name temporaryPathFor made: what a crash between write and rename leaves behind. */
export function isTemporaryName(name: string): boolean {
  return TEMPORARY_NAME.test(name)
}

/**
 * The one way a file reaches its name on a disk: the bytes go to a temporary file, which is
 * fsynced, then renamed (or linked, `publish: 'link'`, to refuse an existing name) over the
 * destination, and the directory is fsynced so the new name survives a power cut too. A reader
 * sees the old file or the new one, never half of one. On failure nothing is left: not the
 * temporary file, not the folders this write created. A full disk is ERR_STORAGE_FULL.
 */
export async function writeDurably(destination: string, write: (temporaryPath: string) => Promise<unknown>, publish: 'rename' | 'link' = 'rename'): Promise<boolean> {
  const folder = path.dirname(destination)
  const created = await mkdir(folder, { recursive: true }).catch((error: unknown) => { throw storageFault(error) })
  const temporary = temporaryPathFor(destination)
  try {
    await write(temporary).catch(async (error: unknown) => {
      // The folder went between mkdir and the write (an orphan sweep removed it as empty): once more.
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error
      await mkdir(folder, { recursive: true })
      await write(temporary)
    })
    await syncPath(temporary)
    if (publish === 'rename') {
      await rename(temporary, destination)
    } else {
      try {
        await link(temporary, destination)
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false
        throw error
      }
    }
    await syncDirectory(folder)
    return true
  } catch (error) {
    await rm(temporary, { force: true }).catch(() => {})
    if (created) await removeEmptyFolders(folder, created)
    throw storageFault(error)
  } finally {
    if (publish === 'link') await rm(temporary, { force: true }).catch(() => {})
  }
}

/** Writes to a temporary name and publishes it under `destination` durably (writeDurably). */
export async function atomicWrite(destination: string, write: (temporaryPath: string) => Promise<unknown>): Promise<string> {
  await writeDurably(destination, write)
  return destination
}

export function atomicWriteFile(destination: string, bytes: Uint8Array | string): Promise<string> {
  return atomicWrite(destination, (temporary) => writeFile(temporary, bytes, { flag: 'wx' }))
}

/**
 * Writes `bytes` under `destination` only if nothing is there yet, atomically: the file appears
 * whole (a hard link of a finished temporary file) or not at all. Answers false, writing nothing,
 * when another writer got there first; on a shared folder this holds across instances too.
 */
export function atomicCreateFile(destination: string, bytes: Uint8Array | string): Promise<boolean> {
  return writeDurably(destination, (temporary) => writeFile(temporary, bytes, { flag: 'wx' }), 'link')
}

async function syncPath(file: string): Promise<void> {
  const handle = await open(file, 'r')
  try {
    await handle.sync()
  } finally {
    await handle.close()
  }
}

/** A rename is durable once its directory is: Windows cannot open a directory for that, and needs not. */
async function syncDirectory(folder: string): Promise<void> {
  if (process.platform === 'win32') return
  await syncPath(folder)
}

/** From `folder` up to `top` (the first folder mkdir made), each one while it is empty. */
async function removeEmptyFolders(folder: string, top: string): Promise<void> {
  for (let current = folder; ; current = path.dirname(current)) {
    // Not empty (another writer's file arrived) or gone: the rest up the chain is not ours to remove.
    if (!(await rmdir(current).then(() => true, () => false))) return
    if (current === top || path.dirname(current) === current) return
  }
}
