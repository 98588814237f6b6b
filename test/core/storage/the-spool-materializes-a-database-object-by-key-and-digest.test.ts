// The database disk's spool (core/storage/object-spool.ts) is a cache for code that needs a file:
// a copy is named after the key and the bytes' SHA-256, so new bytes under a key get a new copy
// and never a stale one; unused copies go with the sweep, and a swept one comes back on demand.
import { createHash } from 'node:crypto'
import { mkdtemp, readdir, readFile, rm, utimes } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import t from 'tap'
import { migrateToLatest } from '../../../core/db/migrate.ts'
import { DatabaseDisk } from '../../../core/storage/database-disk.ts'
import { spooledContentVersion } from '../../../core/storage/object-spool.ts'
import { UnsafePathError } from '../../../core/storage/safe-path.ts'
import { createStoredObjects } from '../../../core/storage/stored-objects-migration.ts'
import { openPostgresSchema, postgresUnreachable } from '../db/engines.ts'

const sha = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex')

t.test('materialized by key and SHA-256, swept when unused, made again', { skip: (await postgresUnreachable()) ?? false }, async (t) => {
  const database = await openPostgresSchema(t)
  await migrateToLatest(database.db, { 'storage-001': createStoredObjects })
  const spool = await mkdtemp(path.join(tmpdir(), 'spool-'))
  t.teardown(() => rm(spool, { recursive: true, force: true }))
  const disk = new DatabaseDisk('docs', database.db, spool)

  const first = Buffer.from('%PDF-1.7 first')
  await disk.put('sessions/abc/001.pdf', first)
  const file = await disk.localPath('sessions/abc/001.pdf')
  t.equal(path.dirname(file), path.join(spool, 'sessions', 'abc'))
  t.equal(path.basename(file), `sha256-${sha(first)}-001.pdf`)
  t.equal(spooledContentVersion(file), `sha256:${sha(first)}`, 'its content version, the same on every instance')
  t.equal(spooledContentVersion(path.join(spool, '001.pdf')), null)
  t.same(await readFile(file), first)

  const second = Buffer.from('%PDF-1.7 second, longer')
  await disk.put('sessions/abc/001.pdf', second)
  const again = await disk.localPath('sessions/abc/001.pdf')
  t.not(again, file, 'new bytes: a new copy, never the stale one')
  t.same(await readFile(again), second)

  // An hour unused (mtime back-dated): the sweep removes both copies and their folders.
  const old = new Date(Date.now() - 2 * 3_600_000)
  for (const f of [file, again]) await utimes(f, old, old)
  const report = await disk.sweepSpool(3_600_000)
  t.equal(report.unreferencedFiles, 2)
  t.same(await readdir(spool), [], 'the spool is empty')
  t.same(await readFile(await disk.localPath('sessions/abc/001.pdf')), second, 'made again on demand')

  await t.rejects(disk.localPath('sessions/none.pdf'), { code: 'ENOENT' }, 'a missing object fails as a missing file does')
  await t.rejects(disk.put('../escape.pdf', first), UnsafePathError)
  t.throws(() => disk.path('sessions/abc/001.pdf'), /localPath/, 'no path without materializing')
})
