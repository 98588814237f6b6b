// What made a 10 MB document cost seconds on a loaded machine (docs/operating.md): the database
// disk sent its bytes twice on every replacing put (the upsert's insert and update each had them
// as a parameter) and read them back as hex text, twice the size, for the server to encode and
// this process to decode. Counted on the wire, through a proxy between the pool and PostgreSQL:
// each way, the bytes of the object and little more.
import { randomBytes } from 'node:crypto'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import pg from 'pg'
import t from 'tap'
import { openDatabase, quoteIdentifier } from '../../../core/db/database.ts'
import { migrateToLatest } from '../../../core/db/migrate.ts'
import { DatabaseDisk } from '../../../core/storage/database-disk.ts'
import { createStoredObjects } from '../../../core/storage/stored-objects-migration.ts'
import { startTcpProxy, throughProxy } from '../../helpers/tcp-proxy.ts'
import { postgresUnreachable, TEST_DATABASE_URL } from '../db/engines.ts'

const SIZE = 4 * 1024 * 1024
/** Room for the statements, their answers and the COPY framing; the doubling this guards against is 4 MiB. */
const OVERHEAD = 64 * 1024

t.test('put and get move the object once each', { skip: (await postgresUnreachable()) ?? false }, async (t) => {
  const schema = `t_${randomBytes(6).toString('hex')}`
  const admin = new pg.Client({ connectionString: TEST_DATABASE_URL })
  await admin.connect()
  await admin.query(`create schema ${quoteIdentifier(schema)}`)
  const target = new URL(TEST_DATABASE_URL)
  const proxy = await startTcpProxy({ host: target.hostname, port: Number(target.port || 5432) })
  // No LISTEN connection: only the pool's traffic goes through the proxy.
  const database = openDatabase<any>({ url: throughProxy(TEST_DATABASE_URL, proxy), schema, listen: false })
  const spool = await mkdtemp(path.join(tmpdir(), 'spool-'))
  t.teardown(async () => {
    await database.close()
    await proxy.close()
    await admin.query(`drop schema ${quoteIdentifier(schema)} cascade`)
    await admin.end()
    await rm(spool, { recursive: true, force: true })
  })
  await migrateToLatest(database.db, { 'storage-001': createStoredObjects })
  const disk = new DatabaseDisk('docs', database.db, spool)
  const bytes = randomBytes(SIZE)
  await disk.put('signed/a.pdf', randomBytes(SIZE))

  const beforePut = proxy.bytes()
  await disk.put('signed/a.pdf', bytes)
  const afterPut = proxy.bytes()
  const sent = afterPut.toServer - beforePut.toServer
  t.ok(sent >= SIZE && sent < SIZE + OVERHEAD, `a replacing put sends the object once (${sent} bytes for ${SIZE})`)

  const back = await disk.get('signed/a.pdf')
  const received = proxy.bytes().toClient - afterPut.toClient
  t.ok(back.equals(bytes), 'byte-exact')
  t.ok(received >= SIZE && received < SIZE + OVERHEAD, `a get receives the object once, not as hex (${received} bytes for ${SIZE})`)
})
