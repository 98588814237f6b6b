// Errors of long-term validation and archive renewal, each defined once with a stable code.
import { defineError } from '../../../core/http/errors.ts'

export const ERR_LTV_DOCUMENT_NOT_FOUND = defineError('ERR_LTV_DOCUMENT_NOT_FOUND', 404, 'No signed document with this id')
export const ERR_LTV_NOT_APPLICABLE = defineError(
  'ERR_LTV_NOT_APPLICABLE',
  409,
  'This document cannot take validation data and a document timestamp (it has no signature, or its certification allows no change)',
)
