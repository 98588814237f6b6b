// readsOfOneTurn(): equal reads asked in one turn of the event loop run once, at its end; a read
// asked once that one is on its way runs again (so nobody gets an answer from before a write that
// had committed when they asked); different keys never share; a failure reaches every caller.
import t from 'tap'
import { lookupsOfOneTurn, readsOfOneTurn } from '../../../core/db/reads-of-one-turn.ts'

const endOfTurn = () => new Promise((resolve) => setImmediate(resolve))

t.test('equal keys asked in one turn share one read, run at the end of the turn', async (t) => {
  const shared = readsOfOneTurn()
  let runs = 0
  const read = async () => `answer ${++runs}`
  const answers = Promise.all([shared('a', read), shared('a', read), shared('a', read)])
  t.equal(runs, 0, 'nothing runs while the turn goes on')
  t.same(await answers, ['answer 1', 'answer 1', 'answer 1'])
  t.equal(runs, 1)
})

t.test('a read asked after the shared one started gets one of its own, even while the first is unanswered', async (t) => {
  const shared = readsOfOneTurn()
  const answers: Array<(value: string) => void> = []
  let runs = 0
  const read = () => { runs++; return new Promise<string>((resolve) => answers.push(resolve)) }
  const first = shared('a', read)
  await endOfTurn()
  t.equal(runs, 1, 'the first read is on its way')
  const second = shared('a', read)
  await endOfTurn()
  t.equal(runs, 2, 'the later caller did not join a read already sent')
  answers[1]!('new')
  answers[0]!('old')
  t.equal(await second, 'new')
  t.equal(await first, 'old')
})

t.test('different keys never share', async (t) => {
  const shared = readsOfOneTurn()
  const seen: string[] = []
  const answers = await Promise.all(['a', 'b', 'a'].map((key) => shared(key, async () => { seen.push(key); return key })))
  t.same(answers, ['a', 'b', 'a'])
  t.same(seen, ['a', 'b'])
})

t.test('a failing read fails every caller that shared it, thrown or rejected, and the next turn reads again', async (t) => {
  const shared = readsOfOneTurn()
  const thrown = () => { throw new Error('thrown at once') }
  const results = await Promise.allSettled([shared('a', thrown), shared('a', thrown)])
  t.same(results.map((r) => r.status), ['rejected', 'rejected'])
  t.match((results[0] as PromiseRejectedResult).reason, /thrown at once/)
  const rejected = await Promise.allSettled([shared('b', async () => { throw new Error('rejected') }), shared('b', async () => 'never')])
  t.same(rejected.map((r) => r.status), ['rejected', 'rejected'], 'the second caller shared the first one\'s read')
  t.equal(await shared('a', async () => 'recovered'), 'recovered', 'nothing failed is kept')
})

t.test('lookups of one turn: every key asked in it fetched with one call, each caller given its row', async (t) => {
  const fetched: string[][] = []
  const rows = new Map([['a', { id: 'a' }], ['b', { id: 'b' }]])
  let hold: Promise<void> = Promise.resolve()
  const lookUp = lookupsOfOneTurn(async (keys: string[]) => { fetched.push(keys); await hold; return keys.flatMap((k) => (rows.has(k) ? [rows.get(k)!] : [])) }, (row) => row.id)
  const found = await Promise.all(['a', 'b', 'a', 'missing'].map(lookUp))
  t.same(found, [{ id: 'a' }, { id: 'b' }, { id: 'a' }, undefined])
  t.same(fetched, [['a', 'b', 'missing']], 'one call, each key once')

  let release!: () => void
  hold = new Promise((resolve) => { release = resolve })
  const first = lookUp('a')
  await endOfTurn()
  const second = lookUp('a')
  await endOfTurn()
  t.equal(fetched.length, 3, 'a key asked once its batch was sent goes in the next one')
  release()
  t.same([await first, await second], [{ id: 'a' }, { id: 'a' }])

  const failing = lookupsOfOneTurn(async () => { throw new Error('down') }, (row: { id: string }) => row.id)
  const results = await Promise.allSettled([failing('a'), failing('b')])
  t.same(results.map((r) => r.status), ['rejected', 'rejected'], 'a failed fetch fails every caller of its batch')
})
