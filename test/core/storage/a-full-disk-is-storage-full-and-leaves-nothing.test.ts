// Issue 36, item 10, at the disk: a write to a full file system (a real 256 KiB tmpfs) fails with
// ERR_STORAGE_FULL (507), and leaves neither its temporary file nor the folders it created.
import { mkdtemp, readdir, rm, stat, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import t from 'tap'
import { LocalDisk } from '../../../core/storage/disk.ts'
import { mountTmpfs, tmpfsRefused } from '../../helpers/tmpfs.ts'

const refused = await tmpfsRefused()

/** Every entry under `root`, folders with a trailing '/'. */
async function tree(root: string): Promise<string[]> {
  const entries = await readdir(root, { recursive: true, withFileTypes: true })
  return entries.map((e) => path.relative(root, path.join(e.parentPath, e.name)) + (e.isDirectory() ? '/' : '')).sort()
}

t.test('a full disk: 507 ERR_STORAGE_FULL, no temporary file, no folder left', { skip: refused }, async (t) => {
  const base = await mkdtemp(path.join(tmpdir(), 'full-disk-'))
  const root = path.join(base, 'disk')
  const mounted = await mountTmpfs(root, 256)
  t.teardown(async () => {
    await mounted.unmount()
    await rm(base, { recursive: true, force: true })
  })
  const disk = new LocalDisk('full', root)
  await disk.put('signed/ab/kept.pdf', 'an earlier file')
  const before = await tree(root)

  for (const [what, write] of [
    ['put', () => disk.put('sessions/new-session/000-frozen.pdf', Buffer.alloc(1024 * 1024, 7))],
    ['put into a folder that exists', () => disk.put('signed/ab/big.pdf', Buffer.alloc(1024 * 1024, 7))],
    ['putIfAbsent', () => disk.putIfAbsent('sessions/other/certificate.pdf', Buffer.alloc(1024 * 1024, 7))],
    ['putWith', () => disk.putWith('documents/t/deep/record.pdf', (temporary) => writeFile(temporary, Buffer.alloc(1024 * 1024, 7)))],
  ] as const) {
    const error = await (write as () => Promise<unknown>)().then(() => null, (e: unknown) => e as { code?: string; statusCode?: number; cause?: { code?: string } })
    t.equal(error?.code, 'ERR_STORAGE_FULL', `${what}: the stable code`)
    t.equal(error?.statusCode, 507, `${what}: 507 Insufficient Storage`)
    t.equal(error?.cause?.code, 'ENOSPC', `${what}: caused by ENOSPC`)
    t.same(await tree(root), before, `${what}: no temporary file and no new folder is left`)
  }
  t.equal((await stat(disk.path('signed/ab/kept.pdf'))).size, 'an earlier file'.length, 'what was there is untouched')
})
