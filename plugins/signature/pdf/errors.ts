// Errors of the PDF engine, each defined once with a stable code.
import { defineError } from '../../../core/http/errors.ts'

export const ERR_PDF_INVALID = defineError('ERR_PDF_INVALID', 422, 'The file is not a PDF that can be read')
export const ERR_PDF_ENCRYPTED = defineError(
  'ERR_PDF_ENCRYPTED',
  422,
  'The PDF is encrypted or password-protected; remove the protection and upload it again',
)
export const ERR_PDF_ALREADY_SIGNED = defineError(
  'ERR_PDF_ALREADY_SIGNED',
  409,
  'The PDF already carries a signature; rewriting it would invalidate that signature',
)
export const ERR_PDF_NO_CHANGES_ALLOWED = defineError(
  'ERR_PDF_NO_CHANGES_ALLOWED',
  409,
  'The PDF is certified with "no changes allowed"; another signature would break the certification',
)
export const ERR_COUNTERSIGN_ONE_PLACEMENT = defineError(
  'ERR_COUNTERSIGN_ONE_PLACEMENT',
  422,
  'A signature added to a signed PDF is shown in one place: send exactly one placement',
)
export const ERR_IMAGE_INVALID = defineError('ERR_IMAGE_INVALID', 422, 'The stamp image is not a readable PNG or JPEG')
export const ERR_PAGE_OUT_OF_RANGE = defineError('ERR_PAGE_OUT_OF_RANGE', 422, 'The page does not exist in this PDF')
export const ERR_FIELD_INVALID = defineError('ERR_FIELD_INVALID', 422, 'The signature field definition is not valid')
export const ERR_FIELD_NOT_FOUND = defineError('ERR_FIELD_NOT_FOUND', 404, 'The PDF has no signature field with this name')
export const ERR_FIELD_ALREADY_SIGNED = defineError('ERR_FIELD_ALREADY_SIGNED', 409, 'This signature field is already signed')
export const ERR_PDF_WORKERS_BUSY = defineError('ERR_PDF_WORKERS_BUSY', 503, 'Too many documents are being signed right now; try again shortly')
export const ERR_PDF_DECODED_TOO_LARGE = defineError(
  'ERR_PDF_DECODED_TOO_LARGE',
  413,
  'The PDF expands to more data than the server reads for one document',
)
export const ERR_PDF_TOO_COMPLEX = defineError(
  'ERR_PDF_TOO_COMPLEX',
  422,
  'The PDF took longer or more memory to process than the server allows for one document',
)
export const ERR_IMAGE_TOO_LARGE = defineError('ERR_IMAGE_TOO_LARGE', 422, 'The image has more pixels than the server decodes')
export const ERR_BOX_TOO_SMALL = defineError('ERR_BOX_TOO_SMALL', 422, 'A signature box must be at least 8 x 8 pt')
