// What the plugin's services are, as one object: the type routes and services are given. The
// services' layer owns it; signature-services.ts (the entry) builds it.
import type { Database } from '../../core/db/database.ts'
import type { Disk } from '../../core/storage/disk.ts'
import type { SerializedCertificateAuthority } from './certificates/index.ts'
import type { SignatureTables } from './database/schema.ts'
import type { TemplateSlotRepository } from './database/template-slot-repository.ts'
import type { SecretBox } from './library/secret-box.ts'
import type { SignatureLibrary } from './library/signature-library.ts'
import type { SignatureRepository } from './library/signature-repository.ts'
import type { LongTermValidation } from './ltv/long-term-validation.ts'
import type { OutboxWriter } from './outbox/outbox-writer.ts'
import type { PdfWorkerPool } from './pdf/pdf-worker-pool.ts'
import type { ApplicationPki } from './pki/application-pki.ts'
import type { PageImageCache } from './rasterizer/page-image-cache.ts'
import type { PdfTemplateRegistry } from './registry/pdf-template-registry.ts'
import type { SignatureConfig } from './signature-config.ts'
import type { SignatureMetrics } from './signature-metrics.ts'
import type { SessionFinalizer } from './signing/session-finalizer.ts'
import type { EndpointRepository } from './webhooks/endpoint-repository.ts'

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
  readonly outboxWriter: OutboxWriter<EndpointRepository>
  /** Given by the app-level plugin (signatures-app.ts); absent, session-mode finalize answers 501. */
  readonly sessions?: SessionFinalizer
  /** What the plugin measures (no-ops when the host's metrics are off). */
  readonly metrics: SignatureMetrics
  close(): Promise<void>
}
