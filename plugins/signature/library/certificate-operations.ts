import type { SerializedCertificateAuthority } from '../certificates/index.ts'
import { inspectP12, issueCertificate } from '../certificates/certificate-tasks.ts'
import type { PdfWorkerPool } from '../pdf/pdf-worker-pool.ts'
import type { CertificateOperations } from './signature-library.ts'

/** Certificate work in this thread: for tests and scripts. */
export function inProcessCertificateOperations(ca: SerializedCertificateAuthority): CertificateOperations {
  return {
    async issue(subject) {
      const issued = issueCertificate(ca, subject)
      return { ...issued, p12: Buffer.from(issued.p12) }
    },
    async inspect(p12, password) {
      return inspectP12(p12, password)
    },
  }
}

/** Certificate work in the PDF worker pool, off the event loop: what the server uses. */
export function workerCertificateOperations(pool: PdfWorkerPool, ca: SerializedCertificateAuthority): CertificateOperations {
  return {
    async issue(subject) {
      const issued = await pool.run('issueCertificate', ca, subject)
      return { ...issued, p12: Buffer.from(issued.p12) }
    },
    inspect: (p12, password) => pool.run('inspectP12', p12, password),
  }
}
