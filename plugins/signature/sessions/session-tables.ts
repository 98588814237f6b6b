export type SessionMode = 'sequential' | 'parallel'
/** active -> completed (last request signed) | cancelled (by its creator or an admin) | declined (a signer refused). */
export type SessionStatus = 'active' | 'completed' | 'cancelled' | 'declined'
/** pending -> signing (claimed by exactly one finalize) -> signed; pending -> declined. A failed signing goes back to pending. */
export type RequestStatus = 'pending' | 'signing' | 'signed' | 'declined'
export type SessionEventKind = 'created' | 'opened' | 'signed' | 'declined' | 'cancelled' | 'completed' | 'reminded' | 'sealed'

export interface SigningSessionTable {
  id: string
  template_key: string
  signable_id: string
  signable_title: string
  mode: SessionMode
  status: SessionStatus
  created_by: string
  /** The certified revision made at creation: never rewritten. */
  frozen_document_key: string
  frozen_sha256: string
  /** The latest revision; moves on only in the transaction that records the signature. */
  current_document_key: string
  current_sha256: string
  /** Signatures appended so far; the compare-and-set guard of every move of the current document. */
  revision: number
  created_at: string
  updated_at: string
  closed_at: string | null
  /** Last "Remind" (migration 007); the rate limit's compare-and-set. */
  reminded_at?: string | null
  /** The sender's words to the signers. */
  message?: string | null
  /** After this instant nobody can sign; the page shows the session as expired. */
  due_at?: string | null
}

export interface SigningSessionRequestTable {
  id: string
  session_id: string
  slot_key: string
  /** The empty signature field created for this slot at freeze time (/T). */
  field_name: string
  /** Null for a signer addressed by e-mail (signer_email, signer_name): no account. */
  signer_user_id: string | null
  /** A document session's external signer (migration 012). */
  signer_email?: string | null
  signer_name?: string | null
  /** JSON of a document session request's fields: [{ id, type, name, page, x, y, width, height, label }]. */
  fields?: string | null
  /** How the signer proved who they are when signing: 'account' | 'email-code'. */
  identified_by?: string | null
  /** Position in a sequential session; equal numbers may sign in any order among themselves. */
  sign_order: number
  status: RequestStatus
  /** The frozen field's rectangle (PDF points, y up): a request's placement cannot move. */
  page: number
  x: number
  y: number
  width: number
  height: number
  /** Set while status is 'signing': who holds the claim (one finalize call) and since when. */
  claim_token: string | null
  claimed_at: string | null
  /** The digital_signatures child row this request produced. */
  signature_uuid: string | null
  document_key: string | null
  document_sha256: string | null
  decline_reason: string | null
  signed_at: string | null
  declined_at: string | null
  created_at: string
  updated_at: string
}

/** Append-only: rows are inserted, never updated or deleted. */
export interface SigningSessionEventTable {
  id: string
  session_id: string
  request_id: string | null
  event: SessionEventKind
  actor_user_id: string | null
  ip_address: string | null
  sha256_before: string | null
  sha256_after: string | null
  detail: string | null
  created_at: string
  /** The browser that did it (migration 012). */
  user_agent?: string | null
}

export interface SessionTables {
  signing_sessions: SigningSessionTable
  signing_session_requests: SigningSessionRequestTable
  signing_session_events: SigningSessionEventTable
}
