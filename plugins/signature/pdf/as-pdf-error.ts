// pdf-lib and mupdf throw plain errors (TypeError, "Expected instance of PDFDict...") when a file's
// objects have types the specification does not allow. The task had a PDF from outside as input,
// so such an error is that file's fault: a 422 with the reader's own words, never a 500.
import { isAppError } from '../../../core/http/errors.ts'
import { ERR_PDF_INVALID } from './errors.ts'

export async function asPdfError<T>(work: () => T | Promise<T>): Promise<T> {
  try {
    return await work()
  } catch (error) {
    if (isAppError(error)) throw error
    // A stack overflow (deeply nested objects) is a RangeError like any other here.
    throw ERR_PDF_INVALID(`The PDF cannot be processed: ${error instanceof Error ? error.message : String(error)}`, { cause: error })
  }
}
