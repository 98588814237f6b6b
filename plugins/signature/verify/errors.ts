// Errors of the verifier, each defined once with a stable code.
import { defineError } from '../../../core/http/errors.ts'

export const ERR_VERIFY_RATE_LIMITED = defineError('ERR_VERIFY_RATE_LIMITED', 429, 'Too many verifications from this address; try again shortly')
export const ERR_VERIFY_NO_PDF = defineError('ERR_VERIFY_NO_PDF', 400, 'Send the PDF as the body (application/pdf) or as JSON { "pdf": "<base64>" }')
