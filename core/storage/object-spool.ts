// Local copies of objects kept elsewhere (the database disk), for code that can only read a file
// name (mupdf's page images, a browser). A cache, never a source of truth: a copy is named after
// its key and its SHA-256, so a key whose bytes change gets a new copy and no reader ever sees a
// stale one; copies unused for a while are removed, and one removed is made again on demand.
import { mkdir, utimes } from 'node:fs/promises'
import path from 'node:path'
import { atomicWriteFile } from './atomic-write.ts'
import { sweepLeftovers, type LeftoverSweepReport } from './leftover-sweep.ts'
import { resolveInside } from './safe-path.ts'

const SHA256 = /^[0-9a-f]{64}$/

export class ObjectSpool {
  readonly root: string

  constructor(root: string) {
    this.root = path.resolve(root)
  }

  /** A file with the bytes of `key` at `sha256`: the copy already there, or one made from `read()`. */
  async materialize(key: string, sha256: string, read: () => Promise<Uint8Array>): Promise<string> {
    const file = this.#fileOf(key, sha256)
    const now = new Date()
    // Touched on use: the sweep removes copies by age, so one in use stays.
    if (await utimes(file, now, now).then(() => true, () => false)) return file
    await atomicWriteFile(file, await read())
    return file
  }

  /** A name for a temporary file inside the spool (putWith's writers). */
  async scratchFile(): Promise<string> {
    const folder = path.join(this.root, '.scratch')
    await mkdir(folder, { recursive: true })
    return path.join(folder, 'put')
  }

  /** Removes copies unused for `olderThanMs` (and what a crash left of writing one). */
  sweep(olderThanMs: number, signal?: AbortSignal): Promise<LeftoverSweepReport> {
    return sweepLeftovers({
      disk: { root: this.root }, graceMs: olderThanMs, ownedPrefixes: [''], ...(signal ? { signal } : {}),
      // Past the grace period unused: every copy can go, the database keeps the bytes.
      unneeded: async (keys) => keys,
    })
  }

  // <dirname of key>/sha256-<hex>-<basename>: key segments are already safe, the digest is hex.
  #fileOf(key: string, sha256: string): string {
    if (!SHA256.test(sha256)) throw new Error(`Not a SHA-256: ${JSON.stringify(sha256)}`)
    const slash = key.lastIndexOf('/')
    return resolveInside(this.root, `${key.slice(0, slash + 1)}sha256-${sha256}-${key.slice(slash + 1)}`)
  }
}

const SPOOLED = /(?:^|[\\/])sha256-([0-9a-f]{64})-[^\\/]+$/

/**
 * What a spool copy holds, from its name alone: 'sha256:<hex>', the same on every instance and
 * for every copy of those bytes (page images are cached by it); null for any other file.
 */
export function spooledContentVersion(file: string): string | null {
  const match = SPOOLED.exec(file)
  return match ? `sha256:${match[1]}` : null
}
