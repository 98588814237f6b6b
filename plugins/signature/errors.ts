// Errors of the signature plugin, each defined once with a stable code and a status.
// Shared file: add codes, never rewrite the ones already here (other parts of the plugin use them).
import { defineError } from '../../core/http/errors.ts'

// --- Templates (registry, config, rendering) ---
export const ERR_TEMPLATE_NOT_FOUND = defineError('ERR_TEMPLATE_NOT_FOUND', 404, 'No PDF template is registered under this key')
export const ERR_INVALID_TEMPLATE_KEY = defineError(
  'ERR_INVALID_TEMPLATE_KEY',
  400,
  'A template key is lower-case letters, digits, ".", "_" and "-", starting with a letter or digit',
)
export const ERR_RENDERER_UNAVAILABLE = defineError(
  'ERR_RENDERER_UNAVAILABLE',
  503,
  'The PDF renderer is not installed: install Chromium (apt-get install -y chromium) or set CHROMIUM_PATH',
)
export const ERR_RECORD_NOT_SIGNABLE = defineError('ERR_RECORD_NOT_SIGNABLE', 422, 'The record does not implement Signable')

// --- Page images (rasterizer, designer) ---
export const ERR_PAGE_NOT_FOUND = defineError('ERR_PAGE_NOT_FOUND', 404, 'The document has no such page')
export const ERR_PAGE_GEOMETRY_UNSUPPORTED = defineError(
  'ERR_PAGE_GEOMETRY_UNSUPPORTED',
  422,
  'Pages with /Rotate or a page box not at the origin are not supported in the designer',
)

// --- Signing (signer page, finalize, on-demand signing) ---
export const ERR_SLOT_UNKNOWN = defineError('ERR_SLOT_UNKNOWN', 422, 'The template declares no slot with this key')
export const ERR_PLACEMENT_OFF_PAGE = defineError('ERR_PLACEMENT_OFF_PAGE', 422, 'The box does not lie on a page of the document')
export const ERR_NOT_SIGNATORY = defineError('ERR_NOT_SIGNATORY', 403, 'This slot is to be signed by someone else')
export const ERR_ALREADY_SIGNED = defineError('ERR_ALREADY_SIGNED', 409, 'You have signed this slot of this record already: give a reason to sign it again')
export const ERR_SIGNS_ANOTHER_SLOT = defineError('ERR_SIGNS_ANOTHER_SLOT', 403, 'One person signs one slot of a document; you sign another slot of this one')
export const ERR_ALREADY_SIGNED_IN_SESSION = defineError(
  'ERR_ALREADY_SIGNED_IN_SESSION',
  409,
  'This slot was signed in a signing session, in one document with the other signatures: signing it again takes a new session',
)

// --- Designer ---
export const ERR_SLOT_NOT_FOUND = defineError('ERR_SLOT_NOT_FOUND', 404, 'The template has no slot under this key')

// --- Signing sessions ---
export const ERR_SESSION_NOT_FOUND = defineError('ERR_SESSION_NOT_FOUND', 404, 'No signing session with this id')
export const ERR_SESSION_REQUEST_NOT_FOUND = defineError('ERR_SESSION_REQUEST_NOT_FOUND', 404, 'No signing request with this id')
export const ERR_SIGNABLE_NOT_FOUND = defineError('ERR_SIGNABLE_NOT_FOUND', 404, 'No record with this id for this template')
export const ERR_SESSION_REQUEST_NOT_YOURS = defineError('ERR_SESSION_REQUEST_NOT_YOURS', 403, 'This signing request is addressed to someone else')
export const ERR_SESSION_OUT_OF_ORDER = defineError('ERR_SESSION_OUT_OF_ORDER', 409, 'Earlier signers of this sequential session have not signed yet')
export const ERR_SESSION_REQUEST_CLOSED = defineError('ERR_SESSION_REQUEST_CLOSED', 409, 'This signing request has already been signed, declined or is being signed')
export const ERR_SESSION_NOT_COMPLETED = defineError('ERR_SESSION_NOT_COMPLETED', 409, 'The signing session is not completed yet')
export const ERR_SESSION_EXPIRED = defineError('ERR_SESSION_EXPIRED', 409, 'The signing session is past its due date: nobody can sign it any more')
export const ERR_SESSION_CLOSED = defineError('ERR_SESSION_CLOSED', 409, 'This signing session is no longer active')
export const ERR_SESSION_SIGNERS_INVALID = defineError('ERR_SESSION_SIGNERS_INVALID', 422, 'The signers of the session are not valid')
export const ERR_SESSION_SIGNER_NOT_SIGNATORY = defineError('ERR_SESSION_SIGNER_NOT_SIGNATORY', 422, 'The record binds this slot to another signatory')
export const ERR_SESSION_SIGNER_REPEATED = defineError('ERR_SESSION_SIGNER_REPEATED', 422, 'One person may not sign two slots of this session')
export const ERR_SESSION_REMIND_TOO_SOON = defineError('ERR_SESSION_REMIND_TOO_SOON', 429, 'The signers of this session were reminded recently; try again later')

// --- Uploaded documents and signers by e-mail (issue 38) ---
export const ERR_DOCUMENT_NOT_FOUND = defineError('ERR_DOCUMENT_NOT_FOUND', 404, 'No document with this id')
export const ERR_SIGN_LINK_NOT_FOUND = defineError('ERR_SIGN_LINK_NOT_FOUND', 404, 'This signing link is not valid')
export const ERR_SIGN_LINK_EXPIRED = defineError('ERR_SIGN_LINK_EXPIRED', 410, 'This signing link has expired')
export const ERR_SIGN_LINK_USED = defineError('ERR_SIGN_LINK_USED', 410, 'This signing link has been used, or its signing has ended')
export const ERR_SIGN_LINK_UNVERIFIED = defineError('ERR_SIGN_LINK_UNVERIFIED', 401, 'Enter the code mailed to you first')
export const ERR_SIGN_CODE_INVALID = defineError('ERR_SIGN_CODE_INVALID', 400, 'The code is not right')
export const ERR_SIGN_CODE_EXPIRED = defineError('ERR_SIGN_CODE_EXPIRED', 400, 'The code has expired (or none was sent): ask for a new one')
export const ERR_SIGN_CODE_LOCKED = defineError('ERR_SIGN_CODE_LOCKED', 429, 'Too many wrong codes: ask for a new one')
export const ERR_SIGN_RATE_LIMITED = defineError('ERR_SIGN_RATE_LIMITED', 429, 'Too many messages for this address or from this sender; try again later')
export const ERR_TEMPLATE_EXISTS = defineError('ERR_TEMPLATE_EXISTS', 409, 'A template with this name (key) exists already: choose another name')
export const ERR_TEMPLATE_NOT_SAVED = defineError(
  'ERR_TEMPLATE_NOT_SAVED',
  409,
  'This template is declared in configuration or code, not saved from a document: it is renamed or removed there',
)
