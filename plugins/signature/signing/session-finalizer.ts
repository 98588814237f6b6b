import type { PublicUser } from '../../../core/auth/user-repository.ts'

// The seam between the signer (finalize, meta) and signing sessions. The signer page calls these
// when a request id is given; until a session manager is installed on the services, session
// mode answers 501.

export interface SessionRequestView {
  /** The one slot this request may fill (its placement is fixed to the frozen field). */
  slotKey: string
  /** Absolute path of the session's current document, for page images and page sizes (never sent to clients). */
  documentPath: string
  /** e.g. 'pending' | 'signed' | 'declined'; the page shows what it can do. */
  status: string
  sessionId: string
  /** The record's title, for the page header (optional: older finalizers may not know it). */
  signableTitle?: string
}

export interface SessionFinalizeResult {
  status: 'signed'
  signature_uuid: string
  /** The signed revision's key on the signature disk (relative, as in record mode). */
  signed_document_path: string
  signed_at: string
  session: { id: string; status: string }
  request: { id: string; status: string }
}

export interface SessionFinalizer {
  /**
   * 404 when the request does not exist or is not of this template; 403 when it is not the user's.
   * `address` (optional, the caller's request.ip) goes into the audit trail's 'opened' event, which
   * is written unless `options.recordOpening` is false: the signer page records its one opening,
   * its meta and page-image calls that follow do not.
   */
  view(user: PublicUser, templateKey: string, requestId: string, address?: string, options?: { recordOpening?: boolean }): Promise<SessionRequestView>
  /**
   * Signs the request with the user's library signature: 403 not theirs, 409 out of order or
   * already signed (exactly one of concurrent calls wins), 404 unknown request or signature.
   * `input.address` (optional: older callers leave it out, the trail then records no address) is
   * the address the request came from, passed explicitly by the caller (request.ip).
   */
  finalize(user: PublicUser, input: { templateKey: string; requestId: string; signatureUuid: string; address?: string }): Promise<SessionFinalizeResult>
}
