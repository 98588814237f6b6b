import type { PublicUser } from '../../../core/auth/user-repository.ts'
import { writeStampOf } from '../../../core/db/database.ts'
import type { SessionFinalizeResult, SessionFinalizer, SessionRequestView } from '../signing/session-finalizer.ts'
import type { SessionContext, SessionManagerDependencies } from './session-context.ts'
import { createSession } from './session-create.ts'
import { cancelSession, declineRequest, endSessionsOfRemovedSigner } from './session-end.ts'
import { declineSignLink } from './sign-link-decline.ts'
import { mayCancelSession } from './session-access.ts'
import { remindSession } from './session-remind.ts'
import { completionCertificateForMail, completionCertificateOf } from './completion-certificate.ts'
import { requestView, signRequest } from './session-sign.ts'
import { renewDueTimestamps, renewSessionTimestamp, type RenewalReport } from './session-archive-renewal.ts'
import type { SealOutcome } from './session-seal.ts'
import { sealUnsealedSessions, type SealRetryReport } from './session-seal-retry.ts'
import { inboxOf, waitingCountOf, sessionDetail, sessionDocument, sessionDocumentPath, sessionList, sessionsInProgress, signerUrlFor, type InboxItem, type SessionJson } from './session-views.ts'
import { defaultSignerUrl, type SignerUrlBuilder } from './signer-url.ts'
import { KeptUntilWritten } from './kept-until-written.ts'
import { signOverApi } from './session-sign-as-account.ts'
import { finalizeSignLink, sendSignCode, signedDocumentByLink, signLinkDocument, signLinkInfo, verifySignCode, type Client } from './sign-links.ts'
import { externalRecipient, openSignCode, signedDocumentForMail } from './sign-link-mail.ts'

export { SESSION_PERMISSION } from '../permissions.ts'
export { DEFAULT_STALE_CLAIM_MS, type SessionManagerDependencies } from './session-context.ts'
export type { InboxItem, SessionJson, SessionRequestJson } from './session-views.ts'

type MaybeUser = PublicUser | null | undefined

/**
 * Signing sessions: one document, several signers, every signature valid. Freezes the record's
 * PDF once (certified, one empty field per slot) and chains each signer's incremental update on
 * the previous revision. The SessionFinalizer half is what the signer page's finalize calls.
 *
 * A facade: each job lives in its own file, by reason to change - who may act (session-access),
 * the signing order (signing-order), create, sign, end, the audit trail (session-events) and what
 * the API and inbox show (session-views). They share one SessionContext.
 */
export class SigningSessionManager implements SessionFinalizer {
  readonly #ctx: SessionContext

  constructor(deps: SessionManagerDependencies) {
    const writeStamp = writeStampOf(deps.repository.db)
    this.#ctx = {
      deps, now: deps.now ?? (() => new Date()), signerUrl: defaultSignerUrl,
      waitingCounts: new KeptUntilWritten(writeStamp),
      kept: { inProgress: new KeptUntilWritten(writeStamp, 100), pending: new KeptUntilWritten(writeStamp) },
    }
  }

  /** The inbox plugin sets this once the app panel's routes (and the signer's named route) exist. */
  useSignerUrl(builder: SignerUrlBuilder): void {
    this.#ctx.signerUrl = builder
  }

  /** The signer page opened on this request with the signer's primary (else first) active signature. */
  signerUrl(templateKey: string, requestId: string, signerUserId: string): Promise<string | null> {
    return signerUrlFor(this.#ctx, templateKey, requestId, signerUserId)
  }

  create(user: MaybeUser, body: unknown, address?: string): Promise<SessionJson> {
    return createSession(this.#ctx, user, body, address)
  }

  get(user: MaybeUser, sessionId: string): Promise<SessionJson> {
    return sessionDetail(this.#ctx, user, sessionId)
  }

  /** The current revision's bytes (the frozen file before anyone signed). */
  document(user: MaybeUser, sessionId: string): Promise<{ bytes: Buffer; sha256: string; fileName: string }> {
    return sessionDocument(this.#ctx, user, sessionId)
  }

  /** The current revision's file, for its page images: the same people as document(). */
  documentPath(user: MaybeUser, sessionId: string): Promise<string> {
    return sessionDocumentPath(this.#ctx, user, sessionId)
  }

  /** Without mine: sessions the user created or signs in (all of them with read-any). */
  list(user: MaybeUser): Promise<SessionJson[]> {
    return sessionList(this.#ctx, user)
  }

  /** Sessions in progress, for those who may read any: how many, and the newest `limit`. */
  inProgress(user: MaybeUser, limit: number) {
    return sessionsInProgress(this.#ctx, user, limit)
  }

  /** What waits for the user: their pending requests in active sessions. */
  inbox(user: MaybeUser): Promise<InboxItem[]> {
    return inboxOf(this.#ctx, user)
  }

  /** How many of the inbox's requests are the user's turn now. */
  waitingCount(user: MaybeUser): Promise<number> {
    return waitingCountOf(this.#ctx, user)
  }

  /** The certificate of completion (a signed PDF), once the session is completed. */
  certificate(user: MaybeUser, sessionId: string): Promise<{ bytes: Buffer; fileName: string }> {
    return completionCertificateOf(this.#ctx, user, sessionId)
  }

  /** The same certificate for the "completed" e-mail (no viewer: it goes to the session's people); null unless completed. */
  certificateForMail(sessionId: string): Promise<{ bytes: Buffer; fileName: string } | null> {
    return completionCertificateForMail(this.#ctx, sessionId)
  }

  /** Whether the user may cancel this session (the rule cancel enforces), for hiding the control. */
  mayCancel(user: PublicUser, session: Pick<SessionJson, 'createdBy'>): boolean {
    return mayCancelSession(this.#ctx, user, session.createdBy)
  }

  /** `body`: `{ reason? }`, kept in the audit trail. */
  cancel(user: MaybeUser, sessionId: string, address?: string, body?: unknown): Promise<SessionJson> {
    return cancelSession(this.#ctx, user, sessionId, address, body)
  }

  /** A user's account was deleted: the active sessions waiting for them end (cancelled, "signer removed"). */
  signerRemoved(userId: string): Promise<string[]> {
    return endSessionsOfRemovedSigner(this.#ctx, userId)
  }

  /** Mails each signer whose turn it is, at most once an hour per session (429 otherwise). */
  remind(user: MaybeUser, sessionId: string, address?: string): Promise<SessionJson> {
    return remindSession(this.#ctx, user, sessionId, address)
  }

  decline(user: MaybeUser, sessionId: string, requestId: string, body: unknown, address?: string): Promise<SessionJson> {
    return declineRequest(this.#ctx, user, sessionId, requestId, body, address)
  }

  view(user: PublicUser, templateKey: string, requestId: string, address?: string, options: { recordOpening?: boolean } = {}): Promise<SessionRequestView> {
    return requestView(this.#ctx, user, templateKey, requestId, address, options)
  }

  /** Archive renewal of one completed session now: a fresh DSS and document timestamp (creator or cancel-any). */
  renewTimestamp(user: MaybeUser, sessionId: string, address?: string): Promise<SealOutcome> {
    return renewSessionTimestamp(this.#ctx, user, sessionId, address)
  }

  /** Archive renewal of every completed session whose last document timestamp's TSA certificate expires within `beforeDays`. */
  renewDueTimestamps(options: { beforeDays: number }): Promise<RenewalReport[]> {
    return renewDueTimestamps(this.#ctx, options)
  }

  /** Seals every completed session left unsealed (a crash or a TSA down at completion), exactly once across instances. */
  sealUnsealed(signal?: AbortSignal): Promise<SealRetryReport[]> {
    return sealUnsealedSessions(this.#ctx, signal)
  }

  /** An account signer signs over JSON (document sessions have no template signer page). */
  signOverApi(user: MaybeUser, sessionId: string, requestId: string, body: unknown, client: Client): Promise<SessionFinalizeResult> {
    return signOverApi(this.#ctx, user, sessionId, requestId, body, client)
  }

  /** External signers (sign-links.ts): code, verify, what the link shows, its document, finalize. */
  readonly signLinks = {
    sendCode: (token: string) => sendSignCode(this.#ctx, token),
    verify: (token: string, body: unknown, client: Client) => verifySignCode(this.#ctx, token, body, client),
    info: (token: string, cookie: string | undefined) => signLinkInfo(this.#ctx, token, cookie),
    document: (token: string, cookie: string | undefined) => signLinkDocument(this.#ctx, token, cookie),
    finalize: (token: string, cookie: string | undefined, body: unknown, client: Client) => finalizeSignLink(this.#ctx, token, cookie, body, client),
    signed: (token: string) => signedDocumentByLink(this.#ctx, token),
    decline: (token: string, cookie: string | undefined, body: unknown, client: Client) => declineSignLink(this.#ctx, token, cookie, body, client),
  }

  /** What the mail sender needs of signers by e-mail and of completed documents. */
  readonly mail = {
    externalRecipient: (requestId: string) => externalRecipient(this.#ctx, requestId),
    openCode: (sealed: string, requestId: string) => openSignCode(this.#ctx, sealed, requestId),
    signedDocument: (sessionId: string) => signedDocumentForMail(this.#ctx, sessionId),
  }

  /** A file holding a disk key's bytes (the sign links' page images). */
  diskPath(key: string): Promise<string> {
    return this.#ctx.deps.disk.localPath(key)
  }

  diskGet(key: string): Promise<Buffer> {
    return this.#ctx.deps.disk.get(key)
  }

  finalize(user: PublicUser, input: { templateKey: string; requestId: string; signatureUuid: string; address?: string }): Promise<SessionFinalizeResult> {
    return signRequest(this.#ctx, user, input)
  }
}
