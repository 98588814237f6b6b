// The signature disk's leftovers (core/storage/leftover-sweep.ts) swept at boot and then every
// `storage.sweep_every_ms`, on every instance: sweeping is idempotent, and the grace period and
// the only-what-no-row-needs rule make it safe beside other instances' writes in flight.
import type { FastifyInstance } from 'fastify'
import { DatabaseDisk } from '../../../core/storage/database-disk.ts'
import { sweepLeftovers, type LeftoverSweepReport } from '../../../core/storage/leftover-sweep.ts'
import { backgroundPass } from '../background-pass.ts'
import type { SignatureServices } from '../signature-services.ts'
import { DOCUMENT_PREFIXES, unneededDocuments } from './unneeded-documents.ts'

export interface StorageSweep {
  /** One sweep now (or the one in progress); what it removed, in counts. */
  run(): Promise<LeftoverSweepReport>
}

export function createStorageSweep(app: FastifyInstance, services: Pick<SignatureServices, 'config' | 'disk' | 'database'>): StorageSweep {
  const { grace_ms: graceMs, sweep_every_ms: everyMs } = services.config.storage
  const { disk } = services
  const run = backgroundPass(app, {
    everyMs,
    async run(signal) {
      const started = Date.now()
      // In the database a document commits with its row or not at all: no leftovers to judge there,
      // only the local spool of materialized copies, which is a cache.
      const report = disk instanceof DatabaseDisk
        ? await disk.sweepSpool(graceMs, signal)
        : await sweepLeftovers({
          disk, graceMs, ownedPrefixes: DOCUMENT_PREFIXES, signal,
          unneeded: (keys) => unneededDocuments(services.database.db, disk, keys),
        })
      const removed = report.temporaryFiles + report.unreferencedFiles + report.emptyFolders
      // Counts only: which documents they were is nobody's business in a log.
      app.log[removed ? 'info' : 'debug']({ event: 'storage-sweep', disk: disk.name, ...report, ms: Date.now() - started }, removed ? 'storage sweep removed leftovers' : 'storage sweep found nothing to remove')
      return report
    },
    onError: (error) => app.log.error({ err: error, event: 'storage-sweep' }, 'storage sweep failed; it is tried again at the next interval'),
  })
  return { run }
}
