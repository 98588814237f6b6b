// The database disk (core/storage/database-disk.ts) reads an object as binary COPY data and
// replaces one with `excluded.*` (the bytes sent once): a document of several MiB holding every
// byte value comes back byte-exact through get, localPath and a transaction, a replacement
// updates every column that describes the bytes, and putIfAbsent still keeps the first.
import { createHash, randomBytes } from 'node:crypto'
import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import t from 'tap'
import { migrateToLatest } from '../../../core/db/migrate.ts'
import { DatabaseDisk, STORED_OBJECTS_TABLE } from '../../../core/storage/database-disk.ts'
import { createStoredObjects } from '../../../core/storage/stored-objects-migration.ts'
import { openPostgresSchema, postgresUnreachable } from '../db/engines.ts'

const sha = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex')
const MiB = 1024 * 1024

/** Every byte value, in runs and at random, with NUL bytes and backslashes at the edges: what hex or escape decoding would get wrong. */
function document(size: number): Buffer {
  const bytes = randomBytes(size)
  for (let i = 0; i < 256 * 64; i++) bytes[i] = i % 256
  bytes[0] = 0
  bytes[size - 1] = 0x5c
  return bytes
}

t.test('several MiB with every byte value, byte-exact each way', { skip: (await postgresUnreachable()) ?? false }, async (t) => {
  const database = await openPostgresSchema(t)
  await migrateToLatest(database.db, { 'storage-001': createStoredObjects })
  const spool = await mkdtemp(path.join(tmpdir(), 'spool-'))
  t.teardown(() => rm(spool, { recursive: true, force: true }))
  const disk = new DatabaseDisk('docs', database.db, spool)
  const row = (key: string) => database.db.selectFrom(STORED_OBJECTS_TABLE).select(['sha256', 'size']).where('disk', '=', 'docs').where('key', '=', key).executeTakeFirstOrThrow()

  const first = document(12 * MiB + 7)
  await disk.put('signed/big.pdf', first)
  const back = await disk.get('signed/big.pdf')
  t.equal(back.length, first.length)
  t.ok(back.equals(first), '12 MiB back byte-exact')
  t.same(await readFile(await disk.localPath('signed/big.pdf')), first, 'and its spool copy')

  // A replacement, shorter: the row describes the new bytes, not the old.
  const second = document(5 * MiB + 3)
  await disk.put('signed/big.pdf', second)
  t.ok((await disk.get('signed/big.pdf')).equals(second), 'replaced, byte-exact')
  t.same(await row('signed/big.pdf'), { sha256: sha(second), size: String(second.length) }, 'digest and size of the replacement')
  t.same(await readFile(await disk.localPath('signed/big.pdf')), second, 'a spool copy of the replacement')

  t.equal(await disk.putIfAbsent('signed/big.pdf', first), false, 'putIfAbsent on a taken key writes nothing')
  t.ok((await disk.get('signed/big.pdf')).equals(second))
  t.same(await row('signed/big.pdf'), { sha256: sha(second), size: String(second.length) })

  t.same(await disk.get('signed/empty.pdf').catch((e: NodeJS.ErrnoException) => e.code), 'ENOENT', 'a missing key is ENOENT')
  await disk.put('signed/empty.pdf', Buffer.alloc(0))
  t.same(await disk.get('signed/empty.pdf'), Buffer.alloc(0), 'an empty object is empty, not missing')

  // Staged, read back inside its transaction, gone with its rollback.
  const staged = await disk.stage('signed/staged.pdf', first)
  await t.rejects(database.db.transaction().execute(async (trx) => {
    await staged.commitIn(trx)
    t.ok((await disk.on(trx).get('signed/staged.pdf')).equals(first), 'inside the transaction, its own object')
    t.equal(await disk.exists('signed/staged.pdf'), false, 'outside it, nothing yet')
    throw new Error('rolled back')
  }), /rolled back/)
  t.equal(await disk.exists('signed/staged.pdf'), false, 'nothing after the rollback')
})
