// Test helper: a Kysely instance that counts the statements sent through it, for tests that a page
// or a lookup costs what it should. Counted when a result comes back, so a query builder embedded in
// another one (a subquery) is not a statement of its own; a raw CompiledQuery counts, unfiltered.
import type { CompiledQuery, Kysely, QueryId, RootOperationNode } from 'kysely'

export function countStatements<DB>(db: Kysely<DB>, counts: (node: RootOperationNode) => boolean = () => true): { db: Kysely<DB>; n: number } {
  const counter = { n: 0, db }
  const nodes = new WeakMap<QueryId, RootOperationNode>()
  counter.db = db.withPlugin({
    transformQuery: (args) => {
      nodes.set(args.queryId, args.node)
      return args.node
    },
    transformResult: async (args) => {
      const node = nodes.get(args.queryId)
      if (!node || counts(node)) counter.n++
      return args.result
    },
  })
  return counter
}

/** The statements `run` sends through the Kysely instance it is given, compiled as sent (a subquery inside one is not one of its own). */
export async function statementsOf(db: Kysely<any>, run: (db: Kysely<any>) => Promise<unknown>): Promise<CompiledQuery[]> {
  const nodes = new Map<QueryId, RootOperationNode>()
  const sent: Array<{ node: RootOperationNode; queryId: QueryId }> = []
  const spy = db.withPlugin({
    transformQuery: (args) => { nodes.set(args.queryId, args.node); return args.node },
    transformResult: async (args) => {
      const node = nodes.get(args.queryId)
      if (node) sent.push({ node, queryId: args.queryId })
      return args.result
    },
  })
  await run(spy)
  return sent.map(({ node, queryId }) => db.getExecutor().compileQuery(node, queryId))
}
