// Errors of the timestamp client, each defined once with a stable code.
import { defineError } from '../../../core/http/errors.ts'

export const ERR_TIMESTAMP_UNAVAILABLE = defineError(
  'ERR_TIMESTAMP_UNAVAILABLE',
  503,
  'No timestamp authority gave a valid timestamp, so the signature was not made; try again shortly',
)
