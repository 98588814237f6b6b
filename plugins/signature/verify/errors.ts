// Errors of the verifier, each defined once with a stable code.
import { defineError } from '../../../core/http/errors.ts'

export const ERR_VERIFY_RATE_LIMITED = defineError('ERR_VERIFY_RATE_LIMITED', 429, 'Too many verifications from this address; try again shortly')
export const ERR_VERIFY_NO_PDF = defineError('ERR_VERIFY_NO_PDF', 400, 'Send the PDF as the body (application/pdf) or as JSON { "pdf": "<base64>" }')
export const ERR_VERIFY_BUSY = defineError('ERR_VERIFY_BUSY', 503, 'The verifier is busy with other documents; try again shortly')
export const ERR_PDF_TOO_MANY_REVISIONS = defineError('ERR_PDF_TOO_MANY_REVISIONS', 422, 'The PDF has more revisions (incremental updates) than the verifier reads')
export const ERR_PDF_TOO_MANY_OBJECTS = defineError('ERR_PDF_TOO_MANY_OBJECTS', 413, 'The PDF has more objects than the verifier reads')
export const ERR_PDF_TOO_COSTLY_TO_VERIFY = defineError('ERR_PDF_TOO_COSTLY_TO_VERIFY', 422, 'The PDF has too many revisions for its number of objects: checking each revision would cost more than the verifier spends on one document')
