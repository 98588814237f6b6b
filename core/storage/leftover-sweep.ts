// What a crash leaves on a disk: temporary files of writes that never reached their rename, and
// files written for a row whose transaction never committed. Both are removed here, but only once
// older than a grace period, so a write still in flight — on this instance or on another one
// sharing the storage — is never touched: its temporary file and its not-yet-committed file are
// younger than the grace period until its row commits.
import type { Dirent } from 'node:fs'
import { readdir, rm, rmdir, stat } from 'node:fs/promises'
import path from 'node:path'
import { isTemporaryName } from './atomic-write.ts'
import type { Disk } from './disk.ts'

export interface LeftoverSweepOptions {
  disk: Pick<Disk, 'root'>
  /** Files and temporary files younger than this are left alone (in-flight writes). */
  graceMs: number
  now?: Date
  /** Keys (e.g. 'signed/', 'sessions/') whose files belong to rows; others are never judged. */
  ownedPrefixes: readonly string[]
  /** Of these keys (all under an owned prefix, past the grace period), those no row needs. */
  unneeded(keys: string[]): Promise<Iterable<string>>
  /** Keys asked about per call to `unneeded`. */
  batchSize?: number
  /** Stops the walk at its next file (a shutdown); what was removed so far is reported. */
  signal?: AbortSignal
}

export interface LeftoverSweepReport {
  temporaryFiles: number
  unreferencedFiles: number
  emptyFolders: number
  bytes: number
}

/** Walks the disk once and removes what is left over; answers what it removed, in counts. */
export async function sweepLeftovers(options: LeftoverSweepOptions): Promise<LeftoverSweepReport> {
  const cutoff = (options.now ?? new Date()).getTime() - options.graceMs
  const batchSize = options.batchSize ?? 500
  const root = path.resolve(options.disk.root)
  const report: LeftoverSweepReport = { temporaryFiles: 0, unreferencedFiles: 0, emptyFolders: 0, bytes: 0 }
  let candidates: Array<{ key: string; size: number }> = []
  const emptied = new Set<string>()

  const remove = async (file: string, size: number): Promise<boolean> => {
    // Another instance's sweep may have removed it first: then it is not counted twice.
    const removed = await rm(file).then(() => true, () => false)
    if (removed) {
      report.bytes += size
      emptied.add(path.dirname(file))
    }
    return removed
  }
  const flush = async () => {
    const batch = candidates
    candidates = []
    if (!batch.length) return
    const unneeded = new Set(await options.unneeded(batch.map((c) => c.key)))
    for (const { key, size } of batch) {
      if (unneeded.has(key) && await remove(path.join(root, ...key.split('/')), size)) report.unreferencedFiles++
    }
  }
  const owned = (key: string) => options.ownedPrefixes.some((prefix) => key.startsWith(prefix))

  // Files first, in one walk; folders after, deepest first, so a folder emptied here goes in the same pass.
  const folders: string[] = []
  const visit = async (folder: string): Promise<void> => {
    const entries: Dirent[] = await readdir(folder, { withFileTypes: true }).catch(() => [])
    for (const entry of entries) {
      if (options.signal?.aborted) return
      const full = path.join(folder, entry.name)
      if (entry.isDirectory()) {
        await visit(full)
        folders.push(full)
        continue
      }
      if (!entry.isFile()) continue
      const info = await stat(full).catch(() => null)
      if (!info || info.mtimeMs > cutoff) continue
      if (isTemporaryName(entry.name)) {
        if (await remove(full, info.size)) report.temporaryFiles++
        continue
      }
      const key = path.relative(root, full).split(path.sep).join('/')
      if (!owned(key)) continue
      candidates.push({ key, size: info.size })
      if (candidates.length >= batchSize) await flush()
    }
  }
  await visit(root)
  await flush()
  for (const folder of folders) {
    if (options.signal?.aborted) break
    // An empty folder goes once old, or at once when this sweep emptied it. A writer that made it
    // a moment ago and lost it here makes it again (writeDurably retries a vanished folder).
    const info = await stat(folder).catch(() => null)
    if (!info || (info.mtimeMs > cutoff && !emptied.has(folder))) continue
    if (await rmdir(folder).then(() => true, () => false)) {
      report.emptyFolders++
      emptied.add(path.dirname(folder))
    }
  }
  return report
}
