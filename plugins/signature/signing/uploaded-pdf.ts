import { ERR_BODY_TOO_LARGE } from '../../../core/http/errors.ts'
import { ERR_PDF_INVALID } from '../pdf/errors.ts'

/** Largest PDF /api/sign and /api/documents accept (decoded). */
export const MAX_UPLOAD_PDF_BYTES = 10 * 1024 * 1024

/**
 * The cheap checks of an uploaded PDF, before any parsing: its size and its header. Parsing
 * (`inspectPdf` in a worker) then refuses unreadable, encrypted and too complex files with their
 * own 422s; every upload route goes through both.
 */
export function assertPdfUpload(pdf: Buffer): void {
  if (pdf.length > MAX_UPLOAD_PDF_BYTES) throw ERR_BODY_TOO_LARGE(`The PDF is larger than ${MAX_UPLOAD_PDF_BYTES / 1024 / 1024} MiB`)
  if (!pdf.subarray(0, 1024).includes('%PDF-')) throw ERR_PDF_INVALID('The upload is not a PDF (no %PDF- header)')
}
