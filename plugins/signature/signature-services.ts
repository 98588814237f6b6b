import path from 'node:path'
import type { Database } from '../../core/db/database.ts'
import { createTemplateRegistry, type TemplateRegistryOptions } from './create-template-registry.ts'
import type { SignatureTables } from './database/schema.ts'
import { TemplateSlotRepository } from './database/template-slot-repository.ts'
import type { PdfTemplateRegistry } from './registry/pdf-template-registry.ts'
import type { SignatureConfig } from './signature-config.ts'
import { loadOrCreateKeyFile, parseKey32 } from '../../core/storage/key-file.ts'
import type { Disk, StorageDriver } from '../../core/storage/disk.ts'
import { DatabaseDisk } from '../../core/storage/database-disk.ts'
import { openDisk } from '../../core/storage/open-disk.ts'
import { withSharedKeyFiles } from '../../core/storage/shared-key-files.ts'
import { WorkerPool } from '../../core/workers/worker-pool.ts'
import type { SerializedCertificateAuthority } from './certificates/index.ts'
import { loadOrCreateAppCertificateAuthority } from './library/app-certificate-authority.ts'
import { workerCertificateOperations } from './library/certificate-operations.ts'
import { assertEncryptionKeyOpensSecrets } from './library/encryption-key-check.ts'
import { SecretBox } from './library/secret-box.ts'
import { workerImageDecoder } from './library/signature-image.ts'
import { SignatureLibrary } from './library/signature-library.ts'
import { SignatureRepository } from './library/signature-repository.ts'
import { createPdfWorkerPool, pdfLimitOptions, type PdfWorkerPool } from './pdf/pdf-worker-pool.ts'
import type { TimestampSource } from './timestamps/timestamp-source.ts'
import { PageImageCache, RASTERIZE_WORKER, rasterizerShared } from './rasterizer/page-image-cache.ts'
import type { SessionFinalizer } from './signing/session-finalizer.ts'
import { OutboxRepository } from './outbox/outbox-repository.ts'
import { OutboxWriter } from './outbox/outbox-writer.ts'
import { EndpointRepository } from './webhooks/endpoint-repository.ts'
import { loadOrCreateAppTimestampAuthority } from './pki/app-timestamp-authority.ts'
import { ApplicationPki } from './pki/application-pki.ts'
import { pkiUrls } from './pki/pki-urls.ts'
import { createLongTermValidation, type LongTermValidation } from './ltv/long-term-validation.ts'
import { readFile } from 'node:fs/promises'
import { signatureMetrics, type SignatureMetrics } from './signature-metrics.ts'
import { ERR_VERIFY_BUSY } from './verify/errors.ts'

const ENCRYPTION_KEY_FILE = 'signature-encryption.key'
/** Key files every instance must agree on: the CA that issues users' certificates and the TSA it certifies. */
const SHARED_KEY_FILES = ['certificate-authority.json', 'timestamp-authority.json']

/** What a full verify lane tells a client to wait: about one verification's time. */
const VERIFY_RETRY_AFTER_SECONDS = 5

export interface SignatureServices {
  readonly config: SignatureConfig
  readonly registry: PdfTemplateRegistry
  readonly database: Database<SignatureTables>
  readonly slots: TemplateSlotRepository
  /** The signature disk: signed PDFs and session revisions, page-image files (a folder, or PostgreSQL with STORAGE_DRIVER=database). */
  readonly disk: Disk
  /** Users' stored signatures (image + certificate with its sealed password). */
  readonly library: SignatureLibrary
  readonly signatures: SignatureRepository
  /** Signing, freezing and certificate work, off the event loop. */
  readonly pdf: PdfWorkerPool
  /** Verification of uploaded PDFs: threads of its own, bounded queue, never those of `pdf` (issue 35 item 11). */
  readonly verifying: PdfWorkerPool
  /** Page images at designer.dpi for the designer and the signer page. */
  readonly pageImages: PageImageCache
  /** The application's own CA: issues users' certificates and certifies frozen session documents. */
  readonly certificateAuthority: SerializedCertificateAuthority
  /** The CA's CRL and OCSP answers and its timestamp authority (`pki.timestampAuthority` for respondToTimestampQuery). */
  readonly pki: ApplicationPki
  /** B-LT / B-LTA: a signed document's DSS and document timestamp (ltv/). */
  readonly ltv: LongTermValidation
  /** Seals secrets kept in rows (certificate passwords, webhook secrets) with the encryption key. */
  readonly secrets: SecretBox
  /** Rows of e-mail and webhook deliveries, written with the change that causes them. */
  readonly outboxWriter: OutboxWriter
  /** Given by the app-level plugin (signatures-app.ts); absent, session-mode finalize answers 501. */
  readonly sessions?: SessionFinalizer
  /** What the plugin measures (no-ops when the host's metrics are off). */
  readonly metrics: SignatureMetrics
  close(): Promise<void>
}

export interface SignatureServicesOptions extends TemplateRegistryOptions {
  /**
   * A database the host opened, migrated (with signatureMigrations among its own) and owns: the
   * host closes it. The plugin neither migrates nor closes a database it did not open.
   */
  database: Database<SignatureTables>
  /**
   * STORAGE_DRIVER: 'disk' (default) keeps documents under storagePath; 'database' keeps them,
   * page images and the key files in PostgreSQL, shared by every instance (database-disk.ts).
   */
  storageDriver?: StorageDriver
  /** SIGNATURE_ENCRYPTION_KEY (32 bytes, hex or base64); otherwise a key file under storage/keys. */
  encryptionKey?: string
  /** Bytes of PNG kept in memory in front of the disk cache (default 64 MiB). */
  pageImageMemoryBytes?: number
  /**
   * PUBLIC_URL, or the listen address once there is one: issued certificates carry the CRL and
   * OCSP addresses under it. Without it they carry none.
   */
  publicOrigin?: () => string
  /** The host's metrics, through signatureMetrics(app.metrics); absent: nothing is measured. */
  metrics?: SignatureMetrics
}

/**
 * The TSAs every signature is timestamped by: those of SIGNATURE_TSA_URLS, else the application's
 * own (in-process); null for B-B (timestamps off). Plain data, so it reaches the PDF workers where
 * signing happens.
 */
export function timestampSourceOf(config: SignatureConfig, appAuthority: TimestampSource['authority']): TimestampSource | null {
  const { enabled, tsa_urls: urls, tsa_timeout_ms: timeoutMs, tsa_max_response_kb: maxKb } = config.timestamps
  if (!enabled) return null
  return urls.length > 0 ? { urls, timeoutMs, maxResponseBytes: maxKb * 1024 } : { urls: [], authority: appAuthority }
}

/** Registry, repositories over the host's database and worker pools: what the plugin's routes use. */
export async function createSignatureServices(config: SignatureConfig, options: SignatureServicesOptions): Promise<SignatureServices> {
  const { database } = options
  // First of all: the database driver on SQLite stops the boot here.
  const disk = openDisk({ driver: options.storageDriver ?? 'disk', name: config.storage_disk, storagePath: options.storagePath, database })
  const keysDir = path.join(options.storagePath, 'keys')
  const keyFiles = options.encryptionKey ? SHARED_KEY_FILES : [ENCRYPTION_KEY_FILE, ...SHARED_KEY_FILES]
  const loadKeys = async () => {
    const encryptionKey = options.encryptionKey
      ? parseKey32(options.encryptionKey, 'SIGNATURE_ENCRYPTION_KEY')
      : await loadOrCreateKeyFile(path.join(keysDir, ENCRYPTION_KEY_FILE))
    const certificateAuthority = await loadOrCreateAppCertificateAuthority(keysDir)
    const timestampAuthority = await loadOrCreateAppTimestampAuthority(keysDir, certificateAuthority)
    return { encryptionKey, certificateAuthority, timestampAuthority }
  }
  // On the database driver the instances share no folder: the keys travel through the database.
  const { encryptionKey, certificateAuthority, timestampAuthority } = disk instanceof DatabaseDisk
    ? await withSharedKeyFiles(new DatabaseDisk('keys', database.db, disk.root), keysDir, keyFiles, loadKeys)
    : await loadKeys()
  const secrets = new SecretBox(encryptionKey)
  // Before anything that would need closing: a wrong key stops the boot.
  await assertEncryptionKeyOpensSecrets(database.db, secrets)
  const registry = createTemplateRegistry(config, options)
  const pki = new ApplicationPki(database.db, certificateAuthority, timestampAuthority)
  await pki.recordOwnCertificates()
  const { publicOrigin } = options
  const revocationUrls = publicOrigin ? () => pkiUrls(publicOrigin()) : undefined
  const limits = { maxDecodedBytes: config.limits.pdf_decoded_mb * 1024 * 1024, taskTimeoutMs: config.limits.task_timeout_ms, workerHeapMb: config.limits.worker_heap_mb }
  const idleTimeoutMs = config.limits.worker_idle_ms
  const appAuthority = { keyPem: timestampAuthority.keyPem, certificatesPem: [timestampAuthority.certPem, certificateAuthority.certPem] }
  const metrics = options.metrics ?? signatureMetrics()
  const pdf = createPdfWorkerPool({ limits, idleTimeoutMs, timestamps: timestampSourceOf(config, appAuthority), onTaskSettled: metrics.workerTaskSettled('pdf') })
  const rasterizer = new WorkerPool({ module: RASTERIZE_WORKER, idleTimeoutMs, ...pdfLimitOptions(limits), prepareShared: rasterizerShared, onTaskSettled: metrics.workerTaskSettled('rasterizer') })
  // Uploads from anyone get their own lane: signing never waits behind them, and a full lane
  // refuses (503) instead of queueing without end. Lowest priority: on a full machine the CPU goes
  // to the threads people are waiting on.
  const verifying = createPdfWorkerPool({
    limits, idleTimeoutMs, size: config.verify.workers, maxQueue: config.verify.queue, nice: 19,
    queueFullError: () => ERR_VERIFY_BUSY(undefined, { headers: { 'retry-after': String(VERIFY_RETRY_AFTER_SECONDS) } }),
    onTaskSettled: metrics.workerTaskSettled('verify'),
  })
  metrics.watchWorkerPools({ pdf, rasterizer, verify: verifying })
  const signatures = new SignatureRepository(database.db)
  // The verifier refuses a TRUST_ANCHORS file it cannot read at boot; here one is simply not asked.
  const trustAnchors = await Promise.all(config.verify.trust_anchors.map((file) => readFile(file, 'utf8').catch(() => '')))
  const ltv = createLongTermValidation({ pdf, pki, trustAnchors, online: config.verify.online_revocation ? { timeoutMs: 5_000, maxBytes: 10 * 1024 * 1024 } : null })
  const outboxWriter = new OutboxWriter(new OutboxRepository(database.db), new EndpointRepository(database.db))
  return {
    config,
    registry,
    database,
    slots: new TemplateSlotRepository(database.db),
    disk,
    signatures,
    library: new SignatureLibrary(signatures, secrets, workerCertificateOperations(pdf, certificateAuthority, revocationUrls), workerImageDecoder(pdf), undefined, outboxWriter),
    pdf,
    verifying,
    pageImages: new PageImageCache({ pool: rasterizer, disk, dpi: config.designer.dpi, maxMemoryBytes: options.pageImageMemoryBytes ?? 64 * 1024 * 1024 }),
    certificateAuthority,
    pki,
    ltv,
    secrets,
    outboxWriter,
    metrics,
    async close() {
      await Promise.all([registry.close(), pdf.close(), verifying.close(), rasterizer.close()])
    },
  }
}
