// Each page-image worker compiled mupdf's 10 MB of WebAssembly when it started (about 1 s of CPU,
// most of a cold page image, paid again after every idle retirement). The pool compiles it once
// and every worker instantiates that module; the pages drawn are the same bytes either way.
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import t from 'tap'
import { WorkerPool } from '../../../../core/workers/worker-pool.ts'
import { RASTERIZE_WORKER, rasterizerShared } from '../../../../plugins/signature/rasterizer/page-image-cache.ts'
import { makePdf } from '../../../fixtures/pdf/make-pdf.ts'

t.test('workers started by the pool use the module compiled once, and draw the same page', async (t) => {
  const dir = await mkdtemp(path.join(tmpdir(), 'shared-mupdf-'))
  t.teardown(() => rm(dir, { recursive: true, force: true }))
  const file = path.join(dir, 'two.pdf')
  await writeFile(file, await makePdf({ pages: 2 }))

  const shared = new WorkerPool({ module: RASTERIZE_WORKER, size: 1, idleTimeoutMs: 50, prepareShared: rasterizerShared })
  const own = new WorkerPool({ module: RASTERIZE_WORKER, size: 1 })
  t.teardown(() => Promise.all([shared.close(), own.close()]))

  t.equal(await shared.run('wasmSource', {}), 'parent', 'the first worker instantiates the parent\'s module')
  t.equal(await own.run('wasmSource', {}), 'own', 'a pool without it compiles its own (the comparison is real)')
  const page = { path: file, page: 2, dpi: 72 }
  t.same(Buffer.from(await shared.run<Uint8Array>('render', page)), Buffer.from(await own.run<Uint8Array>('render', page)), 'the same PNG')

  const deadline = Date.now() + 10_000
  while (shared.stats.workers > 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20))
  t.equal(shared.stats.workers, 0, 'the idle worker was retired')
  t.equal(await shared.run('wasmSource', {}), 'parent', 'the worker started after it gets the same module')
})
