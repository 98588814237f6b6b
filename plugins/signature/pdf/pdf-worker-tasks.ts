// The operations a PDF worker can run: all pure (bytes and plain options in, bytes or plain data
// out), so they can move between threads by structured cloning.
import { freezeDocument } from './freeze-document.ts'
import { inspectPdf } from './inspect-pdf.ts'
import { normalizePdf } from './normalize-pdf.ts'
import { signDocument } from './sign-document.ts'
import { countersignDocument } from './countersign-document.ts'
import { signField } from './sign-field.ts'
import { issueCertificate, inspectP12 } from '../certificates/certificate-tasks.ts'
import { decodeStampImage } from '../library/signature-image.ts'
import { completionCertificate } from '../sessions/completion-certificate-layout.ts'
import { verifyPdf } from '../verify/verify-pdf.ts'
import { appendLongTermValidation } from '../ltv/append-long-term-validation.ts'
import { collectValidationNeeds } from '../ltv/collect-validation-needs.ts'

// Certificate work rides along: issuing generates an RSA key and a PKCS#12 (~200 ms of CPU),
// opening one runs forge's PBKDF2 (~30-60 ms).
// Decoding a stamp image too: a 16-bit PNG of 4000 x 4000 pixels took 2-5 s of CPU.
export const pdfWorkerTasks = { normalizePdf, signDocument, countersignDocument, freezeDocument, signField, inspectPdf, issueCertificate, inspectP12, decodeStampImage, completionCertificate, verifyPdf, collectValidationNeeds, appendLongTermValidation } as const

/** The tasks that read a PDF from outside (the first argument). */
export const pdfDocumentTasks = ['normalizePdf', 'signDocument', 'countersignDocument', 'freezeDocument', 'signField', 'inspectPdf', 'verifyPdf', 'collectValidationNeeds', 'appendLongTermValidation'] as const satisfies ReadonlyArray<keyof typeof pdfWorkerTasks>

export type PdfWorkerTasks = typeof pdfWorkerTasks
export type PdfTaskName = keyof PdfWorkerTasks
