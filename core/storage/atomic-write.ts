import { randomBytes } from 'node:crypto'
import { link, mkdir, rename, rm, writeFile } from 'node:fs/promises'
import path from 'node:path'

/** A temporary name next to the destination: same directory, so the rename is atomic. */
export function temporaryPathFor(destination: string): string {
  return path.join(path.dirname(destination), `.${path.basename(destination)}.${randomBytes(6).toString('hex')}.tmp`)
}

/**
 * Writes to a temporary name and renames it over the destination, so a reader sees the old file
 * or the new one, never half of one, and a crash leaves no truncated file under the real name.
 */
export async function atomicWrite(destination: string, write: (temporaryPath: string) => Promise<unknown>): Promise<string> {
  await mkdir(path.dirname(destination), { recursive: true })
  const temporary = temporaryPathFor(destination)
  try {
    await write(temporary)
    await rename(temporary, destination)
  } catch (error) {
    await rm(temporary, { force: true })
    throw error
  }
  return destination
}

export function atomicWriteFile(destination: string, bytes: Uint8Array | string): Promise<string> {
  return atomicWrite(destination, (temporary) => writeFile(temporary, bytes))
}

/**
 * Writes `bytes` under `destination` only if nothing is there yet, atomically: the file appears
 * whole (a hard link of a finished temporary file) or not at all. Answers false, writing nothing,
 * when another writer got there first; on a shared folder this holds across instances too.
 */
export async function atomicCreateFile(destination: string, bytes: Uint8Array | string): Promise<boolean> {
  await mkdir(path.dirname(destination), { recursive: true })
  const temporary = temporaryPathFor(destination)
  try {
    await writeFile(temporary, bytes)
    await link(temporary, destination)
    return true
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false
    throw error
  } finally {
    await rm(temporary, { force: true })
  }
}
