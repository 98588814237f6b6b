import { sql, type Kysely, type Transaction } from 'kysely'
import { compiledOnce } from '../../../core/db/compiled-once.ts'
import type { StagedObject } from '../../../core/storage/disk.ts'
import type { SignatureTables } from '../database/schema.ts'
import type { DigitalSignatureTable, SignaturePositionTable } from '../library/library-tables.ts'
import type { SessionEventSink } from './session-notifications.ts'
import type { SigningSessionEventTable, SigningSessionRequestTable, SigningSessionTable } from './session-tables.ts'

type Db = Kysely<SignatureTables> | Transaction<SignatureTables>

export type CommitOutcome = 'committed' | 'revision-moved' | 'session-closed' | 'claim-lost'

export interface SignatureCommit {
  sessionId: string
  requestId: string
  claimToken: string
  /** The revision the new file was built on: the compare-and-set guard. */
  baseRevision: number
  documentKey: string
  /** The new revision's bytes, committed in the same transaction (a database disk writes them there). */
  document?: StagedObject
  documentSha256: string
  sha256Before: string
  signedAt: string
  /** Absent for a signer without an account: no library signature to hang a row on. */
  signature?: DigitalSignatureTable
  positions: SignaturePositionTable[]
  /** 'account' | 'email-code', kept on the request. */
  identifiedBy?: string
  /** More writes of the same transaction (the sign link consumed); throwing rolls everything back. */
  also?: (tx: Transaction<SignatureTables>) => Promise<void>
  event: SigningSessionEventTable
  completedEvent: SigningSessionEventTable
}

const pendingQuery = (db: Kysely<SignatureTables>) => compiledOnce(db, (userId: string) => db.selectFrom('signing_session_requests as r')
  .innerJoin('signing_sessions as s', 's.id', 'r.session_id')
  .selectAll('r')
  .select(['s.template_key', 's.signable_id', 's.signable_title', 's.mode', 's.created_by', 's.created_at as session_created_at', 's.due_at'])
  .where('r.signer_user_id', '=', userId).where('r.status', 'in', ['pending', 'signing']).where('s.status', '=', 'active')
  .orderBy('s.created_at', 'desc').orderBy('r.id'), 1)

const affected = (result: { numUpdatedRows: bigint }) => Number(result.numUpdatedRows)

/**
 * Rows of signing sessions. Every state change is one conditional UPDATE whose row count says
 * whether it happened, so the rules hold between processes sharing one PostgreSQL, not only
 * inside one Node process.
 */
export class SessionRepository {
  /**
   * `events` (the outbox) sees every audit event inside the transaction that writes it, so the
   * messages a change causes are committed with the change or not at all.
   */
  constructor(readonly db: Kysely<SignatureTables>, readonly events?: SessionEventSink) {
    this.#pendingFor = pendingQuery(db)
  }

  /** Every page's top bar counts the user's pending requests (the Inbox badge): compiled once. */
  readonly #pendingFor: ReturnType<typeof pendingQuery>

  async #event(tx: Db, event: SigningSessionEventTable): Promise<void> {
    await tx.insertInto('signing_session_events').values(event).execute()
    await this.events?.record(tx, event)
  }

  #committed<T>(result: T): T {
    this.events?.committed()
    return result
  }

  async insertSession(session: SigningSessionTable, requests: SigningSessionRequestTable[], event: SigningSessionEventTable, frozenDocument?: StagedObject, also?: (tx: Transaction<SignatureTables>) => Promise<void>): Promise<void> {
    await this.db.transaction().execute(async (tx) => {
      await frozenDocument?.commitIn(tx)
      await tx.insertInto('signing_sessions').values(session).execute()
      await tx.insertInto('signing_session_requests').values(requests).execute()
      await also?.(tx)
      await this.#event(tx, event)
    })
    this.#committed(undefined)
  }

  findSession(id: string, db: Db = this.db) {
    return db.selectFrom('signing_sessions').selectAll().where('id', '=', id).executeTakeFirst()
  }

  requestsOf(sessionId: string, db: Db = this.db) {
    return db.selectFrom('signing_session_requests').selectAll().where('session_id', '=', sessionId)
      .orderBy('sign_order').orderBy('slot_key').execute()
  }

  findRequest(id: string) {
    return this.db.selectFrom('signing_session_requests').selectAll().where('id', '=', id).executeTakeFirst()
  }

  eventsOf(sessionId: string) {
    return this.db.selectFrom('signing_session_events').selectAll().where('session_id', '=', sessionId)
      .orderBy('created_at').orderBy('id').execute()
  }

  /** Sessions a user created or must sign in (or every session), newest first. */
  listSessions(filter: { userId?: string } = {}, limit = 200) {
    let query = this.db.selectFrom('signing_sessions').selectAll()
    if (filter.userId !== undefined) {
      const userId = filter.userId
      query = query.where(({ or, eb, exists, selectFrom }) => or([
        eb('created_by', '=', userId),
        exists(selectFrom('signing_session_requests as r').select('r.id')
          .whereRef('r.session_id', '=', 'signing_sessions.id').where('r.signer_user_id', '=', userId)),
      ]))
    }
    return query.orderBy('created_at', 'desc').orderBy('id').limit(limit).execute()
  }

  /**
   * Active sessions not past their due date, newest first, with how many requests each has and how
   * many are signed, and how many such sessions there are: the dashboard's "Sessions in progress".
   */
  async inProgress(now: string, limit: number) {
    const open = this.db.selectFrom('signing_sessions')
      .where('status', '=', 'active').where((eb) => eb.or([eb('due_at', 'is', null), eb('due_at', '>=', now)]))
    const requests = (signedOnly: boolean) => this.db.selectFrom('signing_session_requests as r')
      // The outer query's row: a correlated count per listed session.
      .where('r.session_id', '=', sql.ref<string>('signing_sessions.id')).$if(signedOnly, (q) => q.where('r.status', '=', 'signed'))
      .select((eb) => eb.fn.countAll().as('n'))
    const [rows, counted] = await Promise.all([
      open.select(['id', 'signable_title', 'created_at']).select([requests(false).as('requests'), requests(true).as('signed')])
        .orderBy('created_at', 'desc').orderBy('id').limit(limit).execute(),
      // The first due date ahead: past it, a listed session is overdue and leaves the list.
      open.select((eb) => [eb.fn.countAll().as('n'), eb.fn.min('due_at').as('until')]).executeTakeFirstOrThrow(),
    ])
    return {
      total: Number(counted.n),
      rows: rows.map((r) => ({ id: r.id, title: r.signable_title, createdAt: r.created_at, requests: Number(r.requests), signed: Number(r.signed) })),
      until: (counted.until as string | null | undefined) ?? null,
    }
  }

  /** Requests addressed to a user that still wait for them, in active sessions. */
  pendingFor(userId: string) {
    return this.#pendingFor(userId)
  }

  async appendEvent(event: SigningSessionEventTable): Promise<void> {
    await this.db.transaction().execute((tx) => this.#event(tx, event))
    this.#committed(undefined)
  }

  /**
   * The at-most-once gate: moves the request from pending to signing in one conditional UPDATE,
   * only while its session is active and, in a sequential session, every request of a lower
   * order is signed. Exactly one of any number of concurrent callers sees a row count of 1. A
   * claim older than `staleBefore` (its holder died) may be taken over.
   */
  async claim(requestId: string, token: string, at: string, staleBefore: string): Promise<boolean> {
    return this.db.transaction().execute(async (tx) => {
      const result = await tx.updateTable('signing_session_requests')
        .set({ status: 'signing', claim_token: token, claimed_at: at })
        .where('id', '=', requestId)
        .where(({ or, and, eb }) => or([eb('status', '=', 'pending'), and([eb('status', '=', 'signing'), eb('claimed_at', '<', staleBefore)])]))
        .where(({ exists, selectFrom }) => exists(selectFrom('signing_sessions as s').select('s.id')
          .whereRef('s.id', '=', 'signing_session_requests.session_id').where('s.status', '=', 'active')))
        .where(({ not, exists, selectFrom }) => not(exists(selectFrom('signing_session_requests as earlier')
          .innerJoin('signing_sessions as s2', 's2.id', 'earlier.session_id')
          .select('earlier.id')
          .whereRef('earlier.session_id', '=', 'signing_session_requests.session_id')
          .where('s2.mode', '=', 'sequential')
          .whereRef('earlier.sign_order', '<', 'signing_session_requests.sign_order')
          .where('earlier.status', '<>', 'signed'))))
        .executeTakeFirst()
      return affected(result) === 1
    })
  }

  /** Gives a failed claim back (only the holder's token can): the request is signable again. */
  async release(requestId: string, token: string): Promise<void> {
    // updated_at is left alone on claim and release: a failed attempt leaves the row as it was.
    await this.db.updateTable('signing_session_requests')
      .set({ status: 'pending', claim_token: null, claimed_at: null })
      .where('id', '=', requestId).where('status', '=', 'signing').where('claim_token', '=', token)
      .execute()
  }

  /**
   * One transaction: the session's current document moves on (only from the revision the file
   * was built on, only while active), the request becomes signed (only for the claim holder), the
   * signature rows and the audit event are written, and the session completes with its last
   * request. Nothing of it is visible unless all of it is.
   */
  async commitSignature(commit: SignatureCommit, beforeCommit?: () => Promise<void> | void): Promise<{ outcome: CommitOutcome; sessionStatus?: string }> {
    try {
      return await this.db.transaction().execute(async (tx) => {
        const signed = await tx.updateTable('signing_session_requests')
          .set({
            status: 'signed', claim_token: null, signature_uuid: commit.signature?.uuid ?? null, document_key: commit.documentKey,
            document_sha256: commit.documentSha256, signed_at: commit.signedAt, updated_at: commit.signedAt,
            ...(commit.identifiedBy ? { identified_by: commit.identifiedBy } : {}),
          })
          .where('id', '=', commit.requestId).where('status', '=', 'signing').where('claim_token', '=', commit.claimToken)
          .executeTakeFirst()
        // Lost when the claim went stale and another finalize took it over: theirs is the signature.
        if (affected(signed) !== 1) throw new Rollback('claim-lost')
        const moved = await tx.updateTable('signing_sessions')
          .set((eb) => ({
            current_document_key: commit.documentKey,
            current_sha256: commit.documentSha256,
            revision: eb('revision', '+', 1),
            updated_at: commit.signedAt,
          }))
          .where('id', '=', commit.sessionId).where('revision', '=', commit.baseRevision).where('status', '=', 'active')
          .executeTakeFirst()
        if (affected(moved) !== 1) {
          const session = await this.findSession(commit.sessionId, tx)
          throw new Rollback(session?.status === 'active' ? 'revision-moved' : 'session-closed')
        }
        if (commit.signature) await tx.insertInto('digital_signatures').values(commit.signature).execute()
        await commit.also?.(tx)
        if (commit.signature && commit.positions.length) await tx.insertInto('signature_positions').values(commit.positions).execute()
        await commit.document?.commitIn(tx)
        await this.#event(tx, commit.event)
        const open = await tx.selectFrom('signing_session_requests').select((eb) => eb.fn.countAll().as('n'))
          .where('session_id', '=', commit.sessionId).where('status', '<>', 'signed').executeTakeFirstOrThrow()
        let sessionStatus = 'active'
        if (Number(open.n) === 0) {
          await tx.updateTable('signing_sessions').set({ status: 'completed', closed_at: commit.signedAt, updated_at: commit.signedAt })
            .where('id', '=', commit.sessionId).execute()
          await this.#event(tx, commit.completedEvent)
          sessionStatus = 'completed'
        }
        // Test seam: a failure here must leave no trace of any of the above.
        await beforeCommit?.()
        return { outcome: 'committed' as const, sessionStatus }
      }).then((done) => this.#committed(done))
    } catch (error) {
      if (error instanceof Rollback) return { outcome: error.outcome }
      throw error
    }
  }

  /**
   * A completed session's document moves on to a sealed revision (DSS and document timestamp),
   * only from the revision the new file was built on: of two concurrent sealings, one wins.
   */
  async commitSeal(commit: { sessionId: string; baseRevision: number; documentKey: string; document?: StagedObject; documentSha256: string; at: string; event: SigningSessionEventTable }): Promise<boolean> {
    return this.db.transaction().execute(async (tx) => {
      const moved = await tx.updateTable('signing_sessions')
        .set((eb) => ({ current_document_key: commit.documentKey, current_sha256: commit.documentSha256, revision: eb('revision', '+', 1), updated_at: commit.at }))
        .where('id', '=', commit.sessionId).where('revision', '=', commit.baseRevision).where('status', '=', 'completed')
        .executeTakeFirst()
      if (affected(moved) !== 1) return false
      await commit.document?.commitIn(tx)
      await this.#event(tx, commit.event)
      return true
    }).then((done) => this.#committed(done))
  }

  /** Completed sessions closed before `closedBefore` and never sealed (no 'sealed' event), oldest first. */
  unsealedSessions(closedBefore: string, limit = 100) {
    return this.db.selectFrom('signing_sessions as s').select(['s.id', 's.revision']).where('s.status', '=', 'completed').where('s.closed_at', '<', closedBefore)
      .where(({ not, exists, selectFrom }) => not(exists(selectFrom('signing_session_events as e').select('e.id').whereRef('e.session_id', '=', 's.id').where('e.event', '=', 'sealed'))))
      .orderBy('s.closed_at').orderBy('s.id').limit(limit).execute()
  }

  /** Completed sessions, oldest first: candidates for sealing or archive renewal. */
  completedSessions(limit = 1000) {
    return this.db.selectFrom('signing_sessions').selectAll().where('status', '=', 'completed')
      .orderBy('closed_at').orderBy('id').limit(limit).execute()
  }

  /** active -> cancelled, once. */
  async cancel(sessionId: string, at: string, event: SigningSessionEventTable): Promise<boolean> {
    return this.db.transaction().execute(async (tx) => {
      const result = await tx.updateTable('signing_sessions').set({ status: 'cancelled', closed_at: at, updated_at: at })
        .where('id', '=', sessionId).where('status', '=', 'active').executeTakeFirst()
      if (affected(result) !== 1) return false
      await this.#event(tx, event)
      return true
    }).then((done) => this.#committed(done))
  }

  /** A reminder, at most one per window: only if the last one was before `notBefore`, while active. */
  async remind(sessionId: string, at: string, notBefore: string, event: SigningSessionEventTable): Promise<boolean> {
    return this.db.transaction().execute(async (tx) => {
      const result = await tx.updateTable('signing_sessions').set({ reminded_at: at })
        .where('id', '=', sessionId).where('status', '=', 'active')
        .where(({ or, eb }) => or([eb('reminded_at', 'is', null), eb('reminded_at', '<', notBefore)]))
        .executeTakeFirst()
      if (affected(result) !== 1) return false
      await this.#event(tx, event)
      return true
    }).then((done) => this.#committed(done))
  }

  /**
   * A pending request (or one whose claim is older than `staleBefore`: its holder died) is declined
   * and its active session ends as declined, together or not at all. A live claim keeps it.
   */
  /** Active sessions in which this user still has a request to sign (pending, or claimed). */
  async activeSessionsAwaiting(userId: string): Promise<string[]> {
    const rows = await this.db.selectFrom('signing_session_requests as r')
      .innerJoin('signing_sessions as s', 's.id', 'r.session_id')
      .select('s.id').distinct()
      .where('r.signer_user_id', '=', userId).where('r.status', 'in', ['pending', 'signing']).where('s.status', '=', 'active')
      .execute()
    return rows.map((r) => r.id)
  }

  /**
   * A signer's account is gone: their open requests end as declined ("signer removed") and the
   * session as cancelled, with the event, in one transaction. False when there was nothing open.
   */
  async cancelForRemovedSigner(sessionId: string, userId: string, at: string, event: SigningSessionEventTable): Promise<boolean> {
    try {
      return await this.db.transaction().execute(async (tx) => {
        const requests = await tx.updateTable('signing_session_requests')
          .set({ status: 'declined', decline_reason: event.detail, declined_at: at, updated_at: at, claim_token: null, claimed_at: null })
          .where('session_id', '=', sessionId).where('signer_user_id', '=', userId).where('status', 'in', ['pending', 'signing'])
          .executeTakeFirst()
        if (affected(requests) === 0) return false
        const session = await tx.updateTable('signing_sessions').set({ status: 'cancelled', closed_at: at, updated_at: at })
          .where('id', '=', sessionId).where('status', '=', 'active').executeTakeFirst()
        if (affected(session) !== 1) throw new Rollback('session-closed')
        await this.#event(tx, event)
        return true
      }).then((done) => this.#committed(done))
    } catch (error) {
      if (error instanceof Rollback) return false
      throw error
    }
  }

  async decline(sessionId: string, requestId: string, reason: string, at: string, staleBefore: string, event: SigningSessionEventTable): Promise<boolean> {
    try {
      return await this.db.transaction().execute(async (tx) => {
        const request = await tx.updateTable('signing_session_requests')
          .set({ status: 'declined', decline_reason: reason, declined_at: at, updated_at: at, claim_token: null, claimed_at: null })
          .where('id', '=', requestId)
          .where(({ or, and, eb }) => or([eb('status', '=', 'pending'), and([eb('status', '=', 'signing'), eb('claimed_at', '<', staleBefore)])]))
          .executeTakeFirst()
        if (affected(request) !== 1) return false
        const session = await tx.updateTable('signing_sessions').set({ status: 'declined', closed_at: at, updated_at: at })
          .where('id', '=', sessionId).where('status', '=', 'active').executeTakeFirst()
        if (affected(session) !== 1) throw new Rollback('session-closed')
        await this.#event(tx, event)
        return true
      }).then((done) => this.#committed(done))
    } catch (error) {
      if (error instanceof Rollback) return false
      throw error
    }
  }
}

class Rollback extends Error {
  constructor(readonly outcome: Exclude<CommitOutcome, 'committed'>) {
    super(outcome)
  }
}
