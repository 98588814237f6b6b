import type { Policy } from '../../../core/access/policy.ts'
import type { Disk } from '../../../core/storage/disk.ts'
import type { SigningIdentity } from '../certificates/index.ts'
import type { SignableSource } from '../contracts/signable-source.ts'
import type { Placement } from '../contracts/placement.ts'
import type { RegisteredTemplate } from '../contracts/pdf-template.ts'
import type { SigningMaterial } from '../library/signature-library.ts'
import type { PdfWorkerPool } from '../pdf/pdf-worker-pool.ts'
import type { TemplateFinder } from '../registry/require-template.ts'
import type { SessionRepository } from './session-repository.ts'
import type { LongTermValidation } from '../ltv/long-term-validation.ts'
import type { SignerUrlBuilder } from './signer-url.ts'
import type { KeptUntilWritten } from './kept-until-written.ts'
import type { SignatureMetrics } from '../signature-metrics.ts'
import type { DocumentRepository } from '../documents/document-repository.ts'
import type { SecretBox } from '../library/secret-box.ts'
import type { SignatureConfig } from '../signature-config.ts'
import type { OutboxWriter } from '../outbox/outbox-writer.ts'

/** What document sessions and their external signers need (issue 38); absent, `document` bodies answer 500. */
export interface DocumentSessionDependencies {
  documents: DocumentRepository
  /** The encryption key's uses: sign-link tokens (mac) and one-time codes in the outbox (seal). */
  secrets: Pick<SecretBox, 'mac' | 'seal' | 'open'>
  /** A certificate from the application's CA for one external signer's one signing. */
  issueCertificate(subject: { name: string; email: string }): Promise<{ p12: Buffer; password: string; subject: string }>
  limits: SignatureConfig['documents']
  /** Code mails go through the outbox like every other mail. */
  outbox: OutboxWriter
}

/** A claim held this long belongs to a process that died mid-signing: it may be taken over. */
export const DEFAULT_STALE_CLAIM_MS = 5 * 60_000

export interface SessionManagerDependencies {
  repository: SessionRepository
  registry: TemplateFinder<RegisteredTemplate>
  slots: { find(templateKey: string, slotKey: string): Promise<Placement | null> }
  source: SignableSource
  users: { findById(id: string): Promise<{ id: string; name: string; email?: string } | null> }
  library: {
    signingMaterial(userId: string, uuid: string): Promise<SigningMaterial>
    list(userId: string): Promise<Array<{ uuid: string; status: string; primary: boolean }>>
  }
  policy: Policy
  disk: Disk
  pdf: Pick<PdfWorkerPool, 'run'>
  /** The application's certificate, which certifies every frozen document; loaded on first use. */
  applicationSigner: () => Promise<SigningIdentity>
  /**
   * B-LTA for completed sessions: after the last signature, a DSS and a document timestamp are
   * appended as a further revision (session-seal.ts). Absent: documents stay at B-T.
   */
  longTermValidation?: Pick<LongTermValidation, 'extend' | 'needs'>
  /** How long a claim lasts before another finalize may take it over (default 5 minutes). */
  staleClaimMs?: number
  now?: () => Date
  /** At most one reminder per session in this long (default an hour). */
  remindIntervalMs?: number
  /** Uploaded documents and external signers (session-create-document.ts, sign-links.ts). */
  documents?: DocumentSessionDependencies
  /** Counts signatures and completed sessions (signature-metrics.ts). */
  metrics?: Pick<SignatureMetrics, 'signatureMade' | 'sessionCompleted'>
  /** Test seams: throwing in either must leave the session exactly as it was. */
  hooks?: {
    afterDocumentWritten?(info: { sessionId: string; requestId: string; documentKey: string }): Promise<void> | void
    beforeCommit?(info: { sessionId: string; requestId: string }): Promise<void> | void
  }
}

/**
 * What every part of the session manager (create, sign, end, views) works with. The signer URL
 * builder is replaced once the app panel's routes exist (SigningSessionManager.useSignerUrl), so
 * parts read it here at call time instead of keeping their own copy.
 */
export interface SessionContext {
  readonly deps: SessionManagerDependencies
  now(): Date
  signerUrl: SignerUrlBuilder
  /**
   * The top bar's Inbox count per user, on every page (one query more per sequential session),
   * kept until the database changes or the first due date passes.
   */
  readonly waitingCounts: KeptUntilWritten<number>
  /** The dashboard's widgets' rows (sessions in progress per list length, each user's pending requests), kept the same way. */
  readonly kept: {
    readonly inProgress: KeptUntilWritten<Awaited<ReturnType<SessionManagerDependencies['repository']['inProgress']>>>
    readonly pending: KeptUntilWritten<Awaited<ReturnType<SessionManagerDependencies['repository']['pendingFor']>>>
  }
}

/** Claims made before this instant belong to a process that died: they may be taken over. */
export function staleBefore(ctx: SessionContext, now: Date): string {
  return new Date(now.getTime() - (ctx.deps.staleClaimMs ?? DEFAULT_STALE_CLAIM_MS)).toISOString()
}
