// The operations a PDF worker can run: all pure (bytes and plain options in, bytes or plain data
// out), so they can move between threads by structured cloning. They come from every layer that
// owns one (the PDF engine, certificates, the library, sessions, verification, LTV), so the table
// is assembled here, at the plugin's entry: the pool of the pdf layer (pdf/pdf-worker-pool.ts)
// knows the tasks only through its PdfWorkerTasks interface, which this file fills in, and no
// lower layer imports a higher one to reach the worker.
import { freezeDocument } from './pdf/freeze-document.ts'
import { inspectPdf } from './pdf/inspect-pdf.ts'
import { normalizePdf } from './pdf/normalize-pdf.ts'
import { signDocument } from './pdf/sign-document.ts'
import { countersignDocument } from './pdf/countersign-document.ts'
import { signField } from './pdf/sign-field.ts'
import { issueCertificate, inspectP12 } from './certificates/certificate-tasks.ts'
import { decodeStampImage } from './library/signature-image.ts'
import { completionCertificate } from './sessions/completion-certificate-layout.ts'
import { verifyPdf } from './verify/verify-pdf.ts'
import { appendLongTermValidation } from './ltv/append-long-term-validation.ts'
import { collectValidationNeeds } from './ltv/collect-validation-needs.ts'

// Certificate work rides along: issuing generates an RSA key and a PKCS#12 (~200 ms of CPU),
// opening one runs forge's PBKDF2 (~30-60 ms).
// Decoding a stamp image too: a 16-bit PNG of 4000 x 4000 pixels took 2-5 s of CPU.
export const pdfWorkerTasks = { normalizePdf, signDocument, countersignDocument, freezeDocument, signField, inspectPdf, issueCertificate, inspectP12, decodeStampImage, completionCertificate, verifyPdf, collectValidationNeeds, appendLongTermValidation } as const

/** The tasks that read a PDF from outside (the first argument). */
export const pdfDocumentTasks = ['normalizePdf', 'signDocument', 'countersignDocument', 'freezeDocument', 'signField', 'inspectPdf', 'verifyPdf', 'collectValidationNeeds', 'appendLongTermValidation'] as const satisfies ReadonlyArray<keyof typeof pdfWorkerTasks>

export type PdfWorkerTaskTable = typeof pdfWorkerTasks

declare module './pdf/pdf-worker-pool.ts' {
  // Declaration merging: the pool's run() is typed by this table without importing it.
  interface PdfWorkerTasks extends PdfWorkerTaskTable {}
}
