// Test helper: a Kysely instance that counts the statements built through it (the query builder's;
// CompiledQuery.raw bypasses plugins), for tests that a page or a lookup costs what it should.
import type { Kysely, RootOperationNode } from 'kysely'

export function countStatements<DB>(db: Kysely<DB>, counts: (node: RootOperationNode) => boolean = () => true): { db: Kysely<DB>; n: number } {
  const counter = { n: 0, db }
  counter.db = db.withPlugin({
    transformQuery: (args) => {
      if (counts(args.node)) counter.n++
      return args.node
    },
    transformResult: async (args) => args.result,
  })
  return counter
}
