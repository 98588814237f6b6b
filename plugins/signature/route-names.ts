// Names of the plugin's panel routes, in one place: route files link to each other through
// panel.url(name) and must not import each other to learn a name. The names are public (the spec
// and host links use some, e.g. signature.pdf-templates.signer.meta): change none of them.

export const DESIGNER_ROUTE = {
  page: 'signature.pdf-templates.designer',
  meta: 'signature.pdf-templates.designer.meta',
  pageImage: 'signature.pdf-templates.designer.page',
  save: 'signature.pdf-templates.designer.save',
} as const

export const TEMPLATES_ROUTE = {
  index: 'signature.templates.index',
  sample: 'signature.templates.sample',
  designer: DESIGNER_ROUTE.page,
} as const

export const SIGNER_ROUTE = {
  page: 'signature.pdf-templates.signer',
  meta: 'signature.pdf-templates.signer.meta',
  finalize: 'signature.pdf-templates.signer.finalize',
  pageImage: 'signature.pdf-templates.signer.page-image',
  signaturePad: 'signature.pdf-templates.signer.signature-pad',
} as const

export const MY_SIGNATURES_ROUTE = 'signature.my-signatures'

export const INBOX_ROUTE = 'signing-sessions.inbox'

export const SESSION_ROUTE = {
  index: 'signing-sessions.index',
  show: 'signing-sessions.show',
  cancel: 'signing-sessions.cancel',
  remind: 'signing-sessions.remind',
  new: 'signing-sessions.new',
  create: 'signing-sessions.create',
} as const

export const WEBHOOKS_ROUTE = {
  index: 'signature.webhooks.index',
  show: 'signature.webhooks.show',
} as const

export const OUTBOX_ROUTE = {
  index: 'signature.outbox.index',
  eml: 'signature.outbox.eml',
} as const

/** The application PKI's app-level routes (no panel, no session): paths in pki/pki-urls.ts. */
export const PKI_ROUTE = {
  caPem: 'signature.pki.ca-pem',
  caDer: 'signature.pki.ca-der',
  crl: 'signature.pki.crl',
  ocsp: 'signature.pki.ocsp',
  ocspGet: 'signature.pki.ocsp-get',
  tsa: 'signature.pki.tsa',
} as const

/** The pages of documents people bring (issue 38): the editor in a panel, and the signing pages. */
export const DOCUMENT_ROUTE = {
  new: 'documents.new',
  sign: 'documents.sign',
} as const
