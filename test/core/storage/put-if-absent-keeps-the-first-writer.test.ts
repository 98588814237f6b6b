// Disk.putIfAbsent: of writers racing for one key exactly one wins and its bytes are the file's;
// the others write nothing and learn it; no temporary file is left. Found when the certificate of
// completion, made at once by the page and by the "completed" mail, came out as two different
// signed files and the mail attached the one the page no longer served.
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import t from 'tap'
import { LocalDisk } from '../../../core/storage/disk.ts'

t.test('twenty writers at once: one wins, the file is whole and is the winner\'s', async (t) => {
  const root = await mkdtemp(path.join(tmpdir(), 'put-if-absent-'))
  t.teardown(() => rm(root, { recursive: true, force: true }))
  const disk = new LocalDisk('test', root)
  const payloads = Array.from({ length: 20 }, (_, i) => Buffer.alloc(256 * 1024, i + 1))
  const won = await Promise.all(payloads.map((bytes) => disk.putIfAbsent('sessions/s1/certificate.pdf', bytes)))
  t.equal(won.filter(Boolean).length, 1, 'exactly one writer wins')
  const stored = await readFile(disk.path('sessions/s1/certificate.pdf'))
  t.same(stored, payloads[won.indexOf(true)], 'the file is the winner\'s, whole')
  t.same(await readdir(path.join(root, 'sessions/s1')), ['certificate.pdf'], 'no temporary file is left')
  t.equal(await disk.putIfAbsent('sessions/s1/certificate.pdf', Buffer.from('later')), false, 'a later writer writes nothing')
  t.same(await readFile(disk.path('sessions/s1/certificate.pdf')), stored)
  await t.rejects(disk.putIfAbsent('../outside', 'x'), 'a key that would leave the root is refused')
})
