import { randomBytes } from 'node:crypto'
import { mkdir, rename, rm, writeFile } from 'node:fs/promises'
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
