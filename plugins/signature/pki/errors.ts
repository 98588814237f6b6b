// Refusals of the PKI endpoints that happen before a protocol answer can be made (the protocol's
// own refusals - a TSA rejection, OCSP malformedRequest - are answers, status 200).
import { defineError } from '../../../core/http/errors.ts'

export const ERR_PKI_EMPTY_REQUEST = defineError('ERR_PKI_EMPTY_REQUEST', 400, 'The request body is empty: send the DER request')
export const ERR_PKI_BAD_ENCODING = defineError('ERR_PKI_BAD_ENCODING', 400, 'The OCSP request in the URL is not base64')
