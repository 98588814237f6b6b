import path from 'node:path'
import { LocalDisk, type Disk } from './disk.ts'
import { assertSafeKey } from './safe-path.ts'

/**
 * Named disks. A name with no explicit root is a folder `disks/<name>` under the storage path
 * (the git-ignored storage/ by default), so configuration only has to name a disk to get one.
 */
export class Disks {
  readonly #disks = new Map<string, Disk>()

  constructor(readonly storagePath: string, roots: Record<string, string> = {}) {
    for (const [name, root] of Object.entries(roots)) this.#disks.set(name, new LocalDisk(name, path.resolve(storagePath, root)))
  }

  disk(name: string): Disk {
    let disk = this.#disks.get(name)
    if (!disk) {
      if (assertSafeKey(name).length !== 1) throw new Error(`A disk name is one path segment: ${JSON.stringify(name)}`)
      disk = new LocalDisk(name, path.join(path.resolve(this.storagePath), 'disks', name))
      this.#disks.set(name, disk)
    }
    return disk
  }
}
