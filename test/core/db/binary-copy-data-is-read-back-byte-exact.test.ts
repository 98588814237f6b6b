// core/db/binary-copy-format.ts and postgres-binary-copy.ts: a select copied out in PostgreSQL's
// binary COPY format comes back as its fields' exact bytes, however the data is cut into
// messages, and inside the transaction it runs in; a connection that cannot answer it fails
// instead of passing for "no rows".
import { randomBytes } from 'node:crypto'
import { Kysely, PostgresDialect, sql } from 'kysely'
import pg from 'pg'
import t from 'tap'
import { BinaryCopyFormatError, parseBinaryCopy } from '../../../core/db/binary-copy-format.ts'
import { binaryCopyOf } from '../../../core/db/postgres-binary-copy.ts'
import { openPostgresSchema, postgresUnreachable, TEST_DATABASE_URL } from './engines.ts'

const SIGNATURE = Buffer.from('PGCOPY\n\xff\r\n\0', 'latin1')
const int16 = (n: number) => { const b = Buffer.alloc(2); b.writeInt16BE(n); return b }
const int32 = (n: number) => { const b = Buffer.alloc(4); b.writeInt32BE(n); return b }

/** What the server sends, written by hand from the documented layout. */
function copyData(rows: Array<Array<Buffer | null>>, options: { flags?: number; extension?: Buffer } = {}): Buffer {
  const extension = options.extension ?? Buffer.alloc(0)
  const parts = [SIGNATURE, int32(options.flags ?? 0), int32(extension.length), extension]
  for (const row of rows) {
    parts.push(int16(row.length))
    for (const field of row) parts.push(field === null ? int32(-1) : Buffer.concat([int32(field.length), field]))
  }
  parts.push(int16(-1))
  return Buffer.concat(parts)
}

const everyByte = Buffer.from(Array.from({ length: 256 }, (_, i) => i))
const ROWS = [[everyByte, null, Buffer.alloc(0)], [Buffer.from('second row')]]

t.test('the documented layout is read back field by field, cut anywhere', async (t) => {
  const data = copyData(ROWS, { extension: Buffer.from('ext') })
  t.same(parseBinaryCopy([data]), ROWS, 'in one message')
  let cuts = 0
  for (let at = 0; at <= data.length; at++) {
    const rows = parseBinaryCopy([data.subarray(0, at), data.subarray(at)])
    if (!rows[0]![0]!.equals(everyByte) || rows[0]![1] !== null || rows[0]![2]!.length !== 0 || rows[1]![0]!.toString() !== 'second row') t.fail(`cut at ${at}`)
    else cuts++
  }
  t.equal(cuts, data.length + 1, 'every cut in two gives the same rows')
  t.same(parseBinaryCopy([...data].map((byte) => Buffer.from([byte]))), ROWS, 'one byte per message')
  t.same(parseBinaryCopy([copyData([])]), [], 'no rows')
})

t.test('a field inside one message is a view of it; one across messages a copy', async (t) => {
  const data = copyData([[everyByte]])
  const whole = parseBinaryCopy([data])[0]![0]!
  const split = parseBinaryCopy([data.subarray(0, 100), data.subarray(100)])[0]![0]!
  t.same(split, everyByte)
  data.fill(7)
  t.equal(whole[0], 7, 'no copy of a field inside one message: it changes with the message')
  t.same(split, everyByte, 'a field across messages is a copy of its own')
})

t.test('anything else than the documented layout is refused', async (t) => {
  const data = copyData(ROWS)
  t.throws(() => parseBinaryCopy([Buffer.from('not copy data at all')]), BinaryCopyFormatError)
  t.throws(() => parseBinaryCopy([data.subarray(0, data.length - 1)]), /ends inside a field count/)
  t.throws(() => parseBinaryCopy([data.subarray(0, 30)]), /ends inside a field/)
  t.throws(() => parseBinaryCopy([data, Buffer.from([0])]), /bytes after the trailer/)
  t.throws(() => parseBinaryCopy([copyData(ROWS, { flags: 1 << 16 })]), /OIDs/)
})

t.test('on PostgreSQL', { skip: (await postgresUnreachable()) ?? false }, async (t) => {
  const database = await openPostgresSchema(t)
  const db = database.db
  await sql`create table blobs (id int primary key, bytes bytea)`.execute(db)
  const large = Buffer.concat([everyByte, randomBytes(3 * 1024 * 1024)])
  await db.insertInto('blobs').values([{ id: 1, bytes: everyByte }, { id: 2, bytes: null }, { id: 3, bytes: Buffer.alloc(0) }, { id: 4, bytes: large }]).execute()

  const rows = await binaryCopyOf(db, sql`select id, bytes from blobs order by id`)
  t.same(rows.map((row) => row[0]!.readInt32BE(0)), [1, 2, 3, 4], 'an int4 in its binary form')
  t.same(rows[0]![1], everyByte, 'every byte value, unchanged')
  t.equal(rows[1]![1], null)
  t.same(rows[2]![1], Buffer.alloc(0))
  t.ok(rows[3]![1]!.equals(large), '3 MiB, byte-exact')
  t.same(await binaryCopyOf(db, sql`select bytes from blobs where id = ${sql.lit(99)}`), [], 'no row: no rows')

  await db.transaction().execute(async (trx) => {
    await trx.insertInto('blobs').values({ id: 5, bytes: Buffer.from('uncommitted') }).execute()
    t.same((await binaryCopyOf(trx, sql`select bytes from blobs where id = 5`))[0]![0]!.toString(), 'uncommitted', 'inside the transaction, its own write')
    t.same(await binaryCopyOf(db, sql`select bytes from blobs where id = 5`), [], 'outside it, nothing yet')
  })

  await t.rejects(binaryCopyOf(db, sql`select bytes from blobs where id = ${5}`), /takes no parameters/)
  await t.rejects(binaryCopyOf(db, sql`select bytes from no_such_table`), /no_such_table/, 'a failing select fails')
  t.equal((await db.selectFrom('blobs').select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow()).n, '5', 'and the connection goes on')

  // Kysely on a plain pool, without openDatabase's answer to COPY: node-postgres drops the data.
  const schema = (await sql<{ s: string }>`select current_schema() as s`.execute(db)).rows[0]!.s
  const plain = new Kysely<any>({ dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: TEST_DATABASE_URL, options: `-c search_path=${schema}` }) }) })
  t.teardown(() => plain.destroy())
  await t.rejects(binaryCopyOf(plain, sql`select bytes from blobs where id = 1`), /does not answer binary COPY/, 'not taken for no rows')
})
