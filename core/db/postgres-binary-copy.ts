import { sql, type Kysely, type RawBuilder } from 'kysely'
import type { Pool, PoolClient, Query as PgQuery, QueryResult } from 'pg'
import { parseBinaryCopy } from './binary-copy-format.ts'

/**
 * The statements binaryCopyOf writes, and only those: `copy (<select>) to stdout with (format binary)`.
 * Any other COPY goes to node-postgres unchanged.
 */
const BINARY_COPY_OUT = /^copy \([\s\S]+\) to stdout with \(format binary\)$/
/** The one row such a statement answers through Kysely: the parsed rows under this column. */
const ROWS_COLUMN = 'binary_copy_rows'

/**
 * Answers binary COPY TO STDOUT statements sent through Kysely (binaryCopyOf) with their rows, on
 * every connection of the pool. node-postgres runs a COPY as an ordinary query and drops its data
 * (its Query's handleCopyData does nothing); this keeps the CopyData messages, which pg-protocol
 * hands over as raw bytes, unlike a row's fields. Installed before the other wrappers of
 * `client.query`, so that they see a promise of a result like any other statement's: the
 * connection's statement timeout, the read bound and the fault mapping of postgres-pool-guard.ts
 * hold for it too.
 */
export function answerBinaryCopyOut(pool: Pool, Query: typeof PgQuery): void {
  class CopyOut extends (Query as unknown as new (text: string, values: undefined, callback: (error: Error | null, result?: QueryResult) => void) => object) {
    readonly chunks: Buffer[] = []
    // Copied at once: the chunk is a view of the parser's buffer, which later data may overwrite.
    handleCopyData(message: { chunk: Buffer }): void {
      this.chunks.push(Buffer.from(message.chunk))
    }
  }
  pool.on('connect', (client: PoolClient) => {
    const query = client.query as (...args: unknown[]) => unknown
    client.query = function (this: PoolClient, ...args: unknown[]) {
      const [text, values, callback] = args
      const noValues = values === undefined || (Array.isArray(values) && values.length === 0)
      if (typeof text !== 'string' || !noValues || callback !== undefined || !BINARY_COPY_OUT.test(text)) return query.apply(this, args)
      return new Promise<QueryResult>((resolve, reject) => {
        const copy: CopyOut = new CopyOut(text, undefined, (error, result) => {
          if (error) return reject(error)
          try {
            resolve({ ...result!, rows: [{ [ROWS_COLUMN]: parseBinaryCopy(copy.chunks) }] })
          } catch (parseError) {
            reject(parseError)
          }
        })
        query.call(this, copy)
      })
    } as typeof client.query
  })
}

/**
 * The rows of `select`, each column's value as the raw bytes PostgreSQL keeps (a bytea: itself),
 * null for NULL: for large bytea values, which an ordinary result sends as hex text, twice the
 * size, to be decoded here (a 9.8 MiB bytea: 77 -> 27 ms wall, bench/storage-driver.bench.ts).
 * COPY takes no parameters: `select` must hold its values as literals (sql.lit), so give it
 * only values already checked (keys of assertSafeKey). Runs on `db`'s connection, inside its
 * transaction if it is one. Only for a Kysely instance of openDatabase on PostgreSQL.
 */
export async function binaryCopyOf(db: Kysely<any>, select: RawBuilder<unknown>): Promise<Array<Array<Buffer | null>>> {
  const statement = sql`copy (${select}) to stdout with (format binary)`
  const compiled = statement.compile(db)
  if (compiled.parameters.length > 0) throw new Error(`binaryCopyOf: COPY takes no parameters, embed them with sql.lit: ${compiled.sql}`)
  const { rows } = await statement.execute(db)
  const answer = (rows[0] as Record<string, unknown> | undefined)?.[ROWS_COLUMN]
  // Without answerBinaryCopyOut on the pool the COPY still succeeds, with no rows: that must not pass for "nothing found".
  if (rows.length !== 1 || !Array.isArray(answer)) throw new Error('binaryCopyOf: this connection does not answer binary COPY (a pool not opened by openDatabase)')
  return answer as Array<Array<Buffer | null>>
}
