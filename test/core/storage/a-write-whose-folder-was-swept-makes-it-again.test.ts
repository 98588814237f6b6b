// The leftover sweep removes empty folders; a writer may have just made one (mkdir) and not yet
// put its temporary file in it. writeDurably then makes the folder again and writes, instead of
// failing the request with ENOENT. Real folders: the "sweep" here is an rmdir at that moment.
import { mkdtemp, readdir, readFile, rm, rmdir, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import t from 'tap'
import { LocalDisk } from '../../../core/storage/disk.ts'

t.test('the folder vanishes between mkdir and the write: made again, the file is written', async (t) => {
  const root = await mkdtemp(path.join(tmpdir(), 'vanished-folder-'))
  t.teardown(() => rm(root, { recursive: true, force: true }))
  const disk = new LocalDisk('test', root)
  let attempts = 0
  await disk.putWith('signed/ab/doc.pdf', async (temporary) => {
    attempts++
    if (attempts === 1) await rmdir(path.dirname(temporary))
    await writeFile(temporary, 'the signed bytes', { flag: 'wx' })
  })
  t.equal(attempts, 2, 'written on the second attempt')
  t.equal(await readFile(disk.path('signed/ab/doc.pdf'), 'utf8'), 'the signed bytes', 'the file is whole under its name')
  t.same(await readdir(path.join(root, 'signed/ab')), ['doc.pdf'], 'no temporary file left')
})
