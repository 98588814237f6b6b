// Errors of webhook endpoints, each defined once with a stable code and a status.
import { defineError } from '../../../core/http/errors.ts'

export const ERR_WEBHOOK_URL_INVALID = defineError('ERR_WEBHOOK_URL_INVALID', 400, 'The webhook URL is not valid')
export const ERR_WEBHOOK_TARGET_PRIVATE = defineError(
  'ERR_WEBHOOK_TARGET_PRIVATE',
  400,
  'The webhook URL resolves to a loopback or private address (set WEBHOOKS_ALLOW_PRIVATE=true to allow)',
)
export const ERR_WEBHOOK_TARGET_UNRESOLVABLE = defineError('ERR_WEBHOOK_TARGET_UNRESOLVABLE', 400, 'The webhook URL\'s host name does not resolve')
export const ERR_WEBHOOK_NOT_FOUND = defineError('ERR_WEBHOOK_NOT_FOUND', 404, 'No webhook endpoint with this id')
export const ERR_WEBHOOK_DELIVERY_NOT_FOUND = defineError('ERR_WEBHOOK_DELIVERY_NOT_FOUND', 404, 'No delivery with this id for this endpoint')
