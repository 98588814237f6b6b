import type { RevocationUrls, SerializedCertificateAuthority } from '../certificates/index.ts'
import { inspectP12, issueCertificate } from '../certificates/certificate-tasks.ts'
import type { PdfWorkerPool } from '../pdf/pdf-worker-pool.ts'
import type { CertificateOperations } from './signature-library.ts'

/** Certificate work in this thread: for tests and scripts. */
export function inProcessCertificateOperations(ca: SerializedCertificateAuthority, revocationUrls?: () => RevocationUrls): CertificateOperations {
  return {
    async issue(subject) {
      const issued = issueCertificate(ca, subject, revocationUrls?.())
      return { ...issued, p12: Buffer.from(issued.p12) }
    },
    async inspect(p12, password) {
      return inspectP12(p12, password)
    },
  }
}

/**
 * Certificate work in the PDF worker pool, off the event loop: what the server uses.
 * `revocationUrls` is asked at each issue: its default origin is the listen address, known only
 * once the server listens.
 */
export function workerCertificateOperations(pool: PdfWorkerPool, ca: SerializedCertificateAuthority, revocationUrls?: () => RevocationUrls): CertificateOperations {
  return {
    async issue(subject) {
      const issued = await pool.run('issueCertificate', ca, subject, revocationUrls?.())
      return { ...issued, p12: Buffer.from(issued.p12) }
    },
    inspect: (p12, password) => pool.run('inspectP12', p12, password),
  }
}
