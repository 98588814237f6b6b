/** A PDF someone uploaded to send for signature (issue 38): the original bytes on the signature disk. */
export interface DocumentTable {
  id: string
  filename: string
  created_by: string
  document_key: string
  sha256: string
  size: number
  /** JSON: [{ page, width, height }] in points as displayed. */
  pages: string
  created_at: string
}

/**
 * The link of one external signer's request: the token is kept only as its SHA-256, the one-time
 * code and the verified browser's cookie too.
 */
export interface SignLinkTable {
  request_id: string
  session_id: string
  email: string
  token_sha256: string
  expires_at: string
  used_at: string | null
  code_sha256: string | null
  code_expires_at: string | null
  code_attempts: number
  cookie_sha256: string | null
  cookie_expires_at: string | null
  created_at: string
}

/** One code mailed: the rows the per-address and per-link hourly limits count. */
export interface SignLinkCodeSentTable {
  id: string
  request_id: string
  email: string
  sent_at: string
}

/**
 * A document saved as a template: its signers' roles (in signing order) and the fields each role
 * fills, as the document session takes them (`signer` indexes `roles`).
 */
export interface DocumentTemplateTable {
  key: string
  label: string
  document_id: string
  /** JSON: ["Employee", "HR"] */
  roles: string
  /** JSON: [{ signer, type, page, x, y, width, height, label? }] */
  fields: string
  created_by: string
  created_at: string
}

export interface DocumentTables {
  documents: DocumentTable
  document_templates: DocumentTemplateTable
  sign_links: SignLinkTable
  sign_link_codes_sent: SignLinkCodeSentTable
}
