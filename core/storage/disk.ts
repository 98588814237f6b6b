import { readFile, rm, stat } from 'node:fs/promises'
import { atomicCreateFile, atomicWrite, atomicWriteFile } from './atomic-write.ts'
import { resolveInside } from './safe-path.ts'

/** A folder that keys (paths with '/' separators) can never leave. */
export interface Disk {
  readonly name: string
  readonly root: string
  /** Absolute path of a key; throws UnsafePathError for a key that could leave the root. */
  path(key: string): string
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
  constructor(readonly name: string, readonly root: string) {}

  path(key: string): string {
    return resolveInside(this.root, key)
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
