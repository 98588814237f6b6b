import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import t from 'tap'
import { LocalDisk } from '../../../core/storage/disk.ts'

t.test('a failed write leaves the previous file whole and no temporary file behind', async (t) => {
  const root = await mkdtemp(path.join(tmpdir(), 'disk-test-'))
  t.teardown(() => rm(root, { recursive: true, force: true }))
  const disk = new LocalDisk('test', root)

  const written = await disk.put('docs/a.pdf', 'first version')
  t.equal(written, path.join(root, 'docs', 'a.pdf'), 'put returns the absolute path')

  await t.rejects(disk.putWith('docs/a.pdf', async (temporary) => {
    const { writeFile } = await import('node:fs/promises')
    await writeFile(temporary, 'half of the sec')
    throw new Error('crash in the middle')
  }), /crash in the middle/)

  t.equal(await readFile(written, 'utf8'), 'first version', 'readers still see the old file')
  t.same(await readdir(path.join(root, 'docs')), ['a.pdf'], 'the temporary file is gone')
})

t.test('the file appears under its name only once complete', async (t) => {
  const root = await mkdtemp(path.join(tmpdir(), 'disk-test-'))
  t.teardown(() => rm(root, { recursive: true, force: true }))
  const disk = new LocalDisk('test', root)
  let seenDuringWrite: boolean | undefined
  await disk.putWith('b.bin', async (temporary) => {
    const { writeFile } = await import('node:fs/promises')
    await writeFile(temporary, 'bytes')
    seenDuringWrite = await disk.exists('b.bin')
    t.not(path.basename(temporary), 'b.bin', 'written under another name')
    t.equal(path.dirname(temporary), root, 'in the same folder, so rename is atomic')
  })
  t.equal(seenDuringWrite, false)
  t.equal(await readFile(disk.path('b.bin'), 'utf8'), 'bytes')
})
