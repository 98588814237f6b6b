// The operations a PDF worker can run: all pure (bytes and plain options in, bytes or plain data
// out), so they can move between threads by structured cloning.
import { freezeDocument } from './freeze-document.ts'
import { inspectPdf } from './inspect-pdf.ts'
import { normalizePdf } from './normalize-pdf.ts'
import { signDocument } from './sign-document.ts'
import { signField } from './sign-field.ts'
import { issueCertificate, inspectP12 } from '../certificates/certificate-tasks.ts'

// Certificate work rides along: issuing generates an RSA key and a PKCS#12 (~200 ms of CPU),
// opening one runs forge's PBKDF2 (~30-60 ms).
export const pdfWorkerTasks = { normalizePdf, signDocument, freezeDocument, signField, inspectPdf, issueCertificate, inspectP12 } as const

export type PdfWorkerTasks = typeof pdfWorkerTasks
export type PdfTaskName = keyof PdfWorkerTasks
