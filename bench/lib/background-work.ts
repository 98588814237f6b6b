// Row 7's background: both worker pools (at their default sizes) kept busy with 2 tasks in flight
// each, 144-DPI renders of a 50-page PDF and signDocument (stamp + certify) of a 100-page PDF.
// Shared by the http section and bench/tools/compare-background-latency.ts.
import { writeFile } from 'node:fs/promises'
import path from 'node:path'
import { WorkerPool } from '../../core/workers/worker-pool.ts'
import { createPdfWorkerPool } from '../../plugins/signature/pdf-worker-pool.ts'
import { RASTERIZE_WORKER } from '../../plugins/signature/rasterizer/page-image-cache.ts'
import { issueUserCertificate, createCertificateAuthority, readP12 } from '../../plugins/signature/certificates/index.ts'
import { makePdf } from '../../test/fixtures/pdf/make-pdf.ts'
import { makeStampPng } from '../../test/fixtures/pdf/stamp-image.ts'

export interface BackgroundWork {
  /** Tasks finished so far. */
  readonly done: { renders: number; signatures: number }
  /** Lets the tasks in flight finish, then closes both pools. */
  stop(): Promise<void>
}

/** Starts the work and resolves once both pools have finished a task (tsx, mupdf and pdf-lib loaded). */
export async function startBackgroundWork(storage: string): Promise<BackgroundWork> {
  const pdfPath = path.join(storage, 'background.pdf')
  await writeFile(pdfPath, await makePdf({ pages: 50 }))
  const hundred = await makePdf({ pages: 100, objectStreams: true })
  const ca = createCertificateAuthority({ commonName: 'Bench CA' })
  const issued = issueUserCertificate(ca, { name: 'Bench Signer', email: 'signer@example.org' })
  const identity = readP12(issued.p12, issued.password)
  const image = makeStampPng()
  const raster = new WorkerPool({ module: RASTERIZE_WORKER })
  const pdfPool = createPdfWorkerPool()
  const done = { renders: 0, signatures: 0 }
  let stopping = false
  const loops: Promise<void>[] = []
  for (let lane = 0; lane < 2; lane++) {
    loops.push((async () => {
      for (let page = 1 + lane; !stopping; page = (page % 50) + 1) {
        await raster.run('render', { path: pdfPath, page, dpi: 144 })
        done.renders++
      }
    })())
    loops.push((async () => {
      while (!stopping) {
        await pdfPool.run('signDocument', hundred, { stamps: [{ page: 1, x: 400, y: 60, width: 200, height: 80, image }], signer: identity, certify: {} })
        done.signatures++
      }
    })())
  }
  while (done.renders < 2 || done.signatures < 1) await new Promise((resolve) => setTimeout(resolve, 50))
  return {
    done,
    async stop() {
      stopping = true
      await Promise.all(loops)
      await raster.close()
      await pdfPool.close()
    },
  }
}
