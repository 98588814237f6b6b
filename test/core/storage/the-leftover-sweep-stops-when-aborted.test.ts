// A shutdown aborts the storage sweep, which then stops at its next file (so a sweep of a large
// disk cannot hold the exit past its deadline); the next boot's sweep does the rest.
import { mkdir, mkdtemp, readdir, rm, utimes, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import t from 'tap'
import { sweepLeftovers } from '../../../core/storage/leftover-sweep.ts'

t.test('aborted: nothing more is removed; the next sweep removes it', async (t) => {
  const root = await mkdtemp(path.join(tmpdir(), 'sweep-abort-'))
  t.teardown(() => rm(root, { recursive: true, force: true }))
  const old = new Date(Date.now() - 7_200_000)
  for (const folder of ['a', 'b']) {
    await mkdir(path.join(root, folder))
    const file = path.join(root, folder, '.doc.pdf.0123456789ab.tmp')
    await writeFile(file, 'half')
    await utimes(file, old, old)
  }
  const stopped = new AbortController()
  stopped.abort()
  const options = { disk: { root }, graceMs: 3_600_000, ownedPrefixes: [], unneeded: async () => [] }
  t.same(await sweepLeftovers({ ...options, signal: stopped.signal }), { temporaryFiles: 0, unreferencedFiles: 0, emptyFolders: 0, bytes: 0 }, 'an aborted sweep removes nothing more')
  t.same((await readdir(root, { recursive: true })).filter((n) => n.endsWith('.tmp')).length, 2, 'both leftovers are still there')
  t.match(await sweepLeftovers(options), { temporaryFiles: 2, emptyFolders: 2 }, 'the next sweep removes them and their emptied folders')
  t.same(await readdir(root), [], 'nothing is left')
})
