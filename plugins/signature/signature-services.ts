import path from 'node:path'
import fp from 'fastify-plugin'
import type { Migration } from 'kysely'
import { openDatabase, type Database } from '../../core/db/database.ts'
import { migrateToLatest } from '../../core/db/migrate.ts'
import { createTemplateRegistry, type TemplateRegistryOptions } from './create-template-registry.ts'
import type { SignatureTables } from './database/schema.ts'
import { signatureMigrations } from './database/migrations/index.ts'
import { TemplateSlotRepository } from './database/template-slot-repository.ts'
import type { PdfTemplateRegistry } from './registry/pdf-template-registry.ts'
import type { SignatureConfig } from './signature-config.ts'
import { loadOrCreateKeyFile, parseKey32 } from '../../core/storage/key-file.ts'
import { Disks } from '../../core/storage/disks.ts'
import type { Disk } from '../../core/storage/disk.ts'
import { WorkerPool } from '../../core/workers/worker-pool.ts'
import type { SerializedCertificateAuthority } from './certificates/index.ts'
import { loadOrCreateAppCertificateAuthority } from './library/app-certificate-authority.ts'
import { workerCertificateOperations } from './library/certificate-operations.ts'
import { SecretBox } from './library/secret-box.ts'
import { workerImageDecoder } from './library/signature-image.ts'
import { SignatureLibrary } from './library/signature-library.ts'
import { SignatureRepository } from './library/signature-repository.ts'
import { createPdfWorkerPool, pdfLimitOptions, type PdfWorkerPool } from './pdf/pdf-worker-pool.ts'
import { PageImageCache, RASTERIZE_WORKER } from './rasterizer/page-image-cache.ts'
import type { SessionFinalizer } from './signing/session-finalizer.ts'

export interface SignatureServices {
  readonly config: SignatureConfig
  readonly registry: PdfTemplateRegistry
  readonly database: Database<SignatureTables>
  readonly slots: TemplateSlotRepository
  /** The signature disk: samples, generated and signed PDFs, page-image files. */
  readonly disk: Disk
  /** Users' stored signatures (image + certificate with its sealed password). */
  readonly library: SignatureLibrary
  readonly signatures: SignatureRepository
  /** Signing, freezing and certificate work, off the event loop. */
  readonly pdf: PdfWorkerPool
  /** Page images at designer.dpi for the designer and the signer page. */
  readonly pageImages: PageImageCache
  /** The application's own CA: issues users' certificates and certifies frozen session documents. */
  readonly certificateAuthority: SerializedCertificateAuthority
  /** Installed by the signing-sessions part; absent, session-mode finalize answers 501. */
  sessions?: SessionFinalizer
  close(): Promise<void>
}

export interface SignatureServicesOptions extends TemplateRegistryOptions {
  /** postgres://... for PostgreSQL; otherwise SQLite in <storagePath>/database/app.sqlite. */
  databaseUrl?: string
  /** A database the host opened and owns (it closes it); migrations still run here. */
  database?: Database<SignatureTables>
  /** Migrations of other parts of the app that share this database. */
  migrations?: Record<string, Migration>
  /** SIGNATURE_ENCRYPTION_KEY (32 bytes, hex or base64); otherwise a key file under storage/keys. */
  encryptionKey?: string
  /** Bytes of PNG kept in memory in front of the disk cache (default 64 MiB). */
  pageImageMemoryBytes?: number
}

/** Registry, database (migrated) and repositories: everything the plugin's routes use. */
export async function createSignatureServices(config: SignatureConfig, options: SignatureServicesOptions): Promise<SignatureServices> {
  const registry = createTemplateRegistry(config, options)
  const ownsDatabase = !options.database
  const database = options.database ?? openDatabase<SignatureTables>(options.databaseUrl
    ? { url: options.databaseUrl }
    : { sqliteFile: path.join(options.storagePath, 'database', 'app.sqlite') })
  try {
    // Every boot: a no-op when nothing is pending, for SQLite and PostgreSQL alike.
    await migrateToLatest(database.db, { ...signatureMigrations, ...options.migrations })
  } catch (error) {
    if (ownsDatabase) await database.close()
    throw error
  }
  const keysDir = path.join(options.storagePath, 'keys')
  const encryptionKey = options.encryptionKey
    ? parseKey32(options.encryptionKey, 'SIGNATURE_ENCRYPTION_KEY')
    : await loadOrCreateKeyFile(path.join(keysDir, 'signature-encryption.key'))
  const certificateAuthority = await loadOrCreateAppCertificateAuthority(keysDir)
  const disk = new Disks(options.storagePath).disk(config.storage_disk)
  const limits = { maxDecodedBytes: config.limits.pdf_decoded_mb * 1024 * 1024, taskTimeoutMs: config.limits.task_timeout_ms, workerHeapMb: config.limits.worker_heap_mb }
  const pdf = createPdfWorkerPool({ limits })
  const rasterizer = new WorkerPool({ module: RASTERIZE_WORKER, ...pdfLimitOptions(limits) })
  const signatures = new SignatureRepository(database.db)
  return {
    config,
    registry,
    database,
    slots: new TemplateSlotRepository(database.db),
    disk,
    signatures,
    library: new SignatureLibrary(signatures, new SecretBox(encryptionKey), workerCertificateOperations(pdf, certificateAuthority), workerImageDecoder(pdf)),
    pdf,
    pageImages: new PageImageCache({ pool: rasterizer, disk, dpi: config.designer.dpi, maxMemoryBytes: options.pageImageMemoryBytes ?? 64 * 1024 * 1024 }),
    certificateAuthority,
    async close() {
      await Promise.all([registry.close(), pdf.close(), rasterizer.close()])
      if (ownsDatabase) await database.close()
    },
  }
}

declare module 'fastify' {
  interface FastifyInstance {
    /** The app-wide signature services; panels' SignaturePlugin instances use these. */
    signature: SignatureServices
  }
}

/** Shares the services with the whole app (hence fastify-plugin) and closes them with it. */
export const signatureServicesPlugin = fp<{ services: SignatureServices }>(async (app, { services }) => {
  app.decorate('signature', services)
  app.addHook('onClose', () => services.close())
}, { name: 'signature-services' })
