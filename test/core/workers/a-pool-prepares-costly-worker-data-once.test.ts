// What is costly to make and cheap to share (a compiled WebAssembly module: mupdf's takes ~1 s to
// compile, in each new worker otherwise) is made once, when the first task arrives, and handed to
// every worker the pool starts, the ones that replace idle workers included.
import t from 'tap'
import { WorkerPool } from '../../../core/workers/worker-pool.ts'

const module = new URL('../../fixtures/echo-worker.ts', import.meta.url)

// (module (func (export "answer") (result i32) i32.const 42))
const ANSWER_WASM = Uint8Array.from([0, 97, 115, 109, 1, 0, 0, 0, 1, 5, 1, 96, 0, 1, 127, 3, 2, 1, 0, 7, 10, 1, 6, 97, 110, 115, 119, 101, 114, 0, 0, 10, 6, 1, 4, 0, 65, 42, 11])

t.test('prepared once, on the first task, and given to every worker started after', async (t) => {
  let prepared = 0
  const pool = new WorkerPool({
    module,
    size: 2,
    idleTimeoutMs: 50,
    prepareShared: async () => {
      prepared++
      return { wasm: await WebAssembly.compile(ANSWER_WASM), label: 'made once' }
    },
  })
  t.teardown(() => pool.close())
  t.equal(prepared, 0, 'nothing is made before a task needs it')
  const answers = await Promise.all([pool.run('sharedWasm', {}), pool.run('sharedWasm', {}), pool.run('shared', {})])
  t.same(answers.slice(0, 2), [42, 42], 'each worker instantiates the module compiled in the parent')
  t.match(answers[2], { label: 'made once' })
  const deadline = Date.now() + 10_000
  while (pool.stats.workers > 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20))
  t.equal(pool.stats.workers, 0, 'idle workers retired')
  t.equal(await pool.run('sharedWasm', {}), 42, 'a worker started again gets the same module')
  t.equal(prepared, 1, 'made once in all')
})

t.test('when preparing fails, tasks fail with its error and the next task tries again', async (t) => {
  let calls = 0
  const pool = new WorkerPool({
    module,
    size: 1,
    prepareShared: async () => {
      calls++
      if (calls === 1) throw new Error('the module file is missing')
      return { label: 'second try' }
    },
  })
  t.teardown(() => pool.close())
  await t.rejects(pool.run('echo', 1), { message: 'the module file is missing' })
  t.match(await pool.run('shared', {}), { label: 'second try' })
})
