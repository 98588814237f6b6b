// The plugin's permission strings, in one place: a grant in config/auth.ts names one of these, and
// a check that spells the string itself could drift from the grant without any test noticing.

/** Who may read every signed document and see every record of a template, not only their own. */
export const READ_ANY_SIGNATURE = 'signatures:read-any'

/** The admin's template list and sample PDFs. */
export const TEMPLATES_PERMISSION = 'signature-templates:read'

/** Saving an uploaded document with its fields as a template (issue 38, item 6). */
export const TEMPLATES_CREATE_PERMISSION = 'signature-templates:create'

/**
 * Deleting a saved template. Renaming one is TEMPLATES_CREATE_PERMISSION (whoever may save one may
 * name it); deleting takes it from everyone who starts sessions from it, so a role gets it apart.
 */
export const TEMPLATES_DELETE_PERMISSION = 'signature-templates:delete'

/** Placing a template's slots in the designer. */
export const DESIGN_PERMISSION = 'signature-templates:design'

export const SESSION_PERMISSION = {
  create: 'signing-sessions:create',
  readAny: 'signing-sessions:read-any',
  /** Cancelling someone else's session; a creator may always cancel their own. */
  cancelAny: 'signing-sessions:cancel',
} as const

/** Registering webhook endpoints, reading their delivery log, sending test events and redeliveries. */
export const WEBHOOKS_PERMISSION = 'webhooks:manage'

/** The outbox page: every e-mail the application sent or wrote as .eml, with its recipient. */
export const OUTBOX_PERMISSION = 'signature-outbox:read'

/** Uploading a PDF of one's own to send for signature (issue 38). */
export const DOCUMENTS_PERMISSION = {
  create: 'documents:create',
} as const
