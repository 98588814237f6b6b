// Errors of the certificate layer, each defined once with a stable code. They live next to the
// code that throws them so this folder can be used (and tested) without the rest of the plugin.
import { defineError } from '../../../core/http/errors.ts'

export const ERR_P12_PASSWORD = defineError('ERR_P12_PASSWORD', 422, 'The password does not open this PKCS#12 file')
export const ERR_P12_INVALID = defineError('ERR_P12_INVALID', 422, 'The file is not a PKCS#12 (.p12/.pfx) certificate with a private key')
export const ERR_CERT_NO_SIGNING_USAGE = defineError(
  'ERR_CERT_NO_SIGNING_USAGE',
  422,
  'The certificate may not be used for signatures (its key usage has neither digitalSignature nor nonRepudiation)',
)
export const ERR_CERT_EXPIRED = defineError('ERR_CERT_EXPIRED', 422, 'The certificate has expired')
export const ERR_CERT_NOT_YET_VALID = defineError('ERR_CERT_NOT_YET_VALID', 422, 'The certificate is not valid yet')
