import type { ExpressionBuilder, Kysely, Transaction } from 'kysely'
import type { SignatureTables } from '../database/schema.ts'
import { orderedId } from '../ordered-id.ts'
import type { OutboxChannel, SignatureOutboxAttemptTable, SignatureOutboxTable } from './outbox-tables.ts'

type Db = Kysely<SignatureTables> | Transaction<SignatureTables>

export interface NewOutboxMessage {
  channel: OutboxChannel
  topic: string
  target: string
  payload: unknown
  /** Given for a redelivery (the same message again); otherwise the row's own id. */
  messageId?: string
}

const affected = (result: { numUpdatedRows: bigint }) => Number(result.numUpdatedRows)

/**
 * Only the oldest due row of a (channel, target) may be taken: a receiver gets session.created
 * before session.completed even with several dispatchers, while a row waiting for its retry
 * (not due) holds nobody up.
 */
function firstOfItsTarget(eb: ExpressionBuilder<SignatureTables, 'signature_outbox'>, now: string) {
  return eb.not(eb.exists(eb.selectFrom('signature_outbox as earlier').select('earlier.id')
    .whereRef('earlier.channel', '=', 'signature_outbox.channel')
    .whereRef('earlier.target', '=', 'signature_outbox.target')
    .whereRef('earlier.id', '<', 'signature_outbox.id')
    .where('earlier.status', '=', 'pending')
    .where('earlier.next_attempt_at', '<=', now)))
}

/**
 * Rows of the outbox. Written by the transaction that makes the change (insert with its `tx`),
 * read and moved on by the dispatcher through conditional UPDATEs whose row count says who won,
 * so two instances on one PostgreSQL never send one row twice at the same time.
 */
export class OutboxRepository {
  constructor(readonly db: Kysely<SignatureTables>) {}

  async insert(tx: Db, messages: readonly NewOutboxMessage[], at: string): Promise<SignatureOutboxTable[]> {
    if (messages.length === 0) return []
    const rows = messages.map((m): SignatureOutboxTable => {
      const id = orderedId()
      return {
        id, message_id: m.messageId ?? `msg_${id}`, channel: m.channel, topic: m.topic, target: m.target, payload: JSON.stringify(m.payload),
        status: 'pending', attempts: 0, next_attempt_at: at, claim_token: null, claimed_at: null, summary: null, last_error: null,
        last_status_code: null, sent_at: null, created_at: at, updated_at: at,
      }
    })
    await tx.insertInto('signature_outbox').values(rows).execute()
    return rows
  }

  /**
   * Ids of rows that are due and unclaimed (or whose claim is stale), oldest first, at most one
   * per target: the first due row of each target, found by one grouped pass over the pending
   * rows (the partial index of migration 011), not a probe per row, which walked the whole
   * backlog when one target's rows came first (~0.3 s at 4,500 pending rows).
   */
  async due(now: string, staleBefore: string, limit: number): Promise<string[]> {
    return (await this.dueQuery(now, staleBefore, limit).execute()).map((r) => r.id)
  }

  /** The pick query itself, for due() and for reading its plan. */
  dueQuery(now: string, staleBefore: string, limit: number) {
    const firsts = this.db.selectFrom('signature_outbox as p').select((eb) => eb.fn.min('p.id').as('id'))
      .where('p.status', '=', 'pending').where('p.next_attempt_at', '<=', now)
      .groupBy(['p.channel', 'p.target'])
    return this.db.selectFrom('signature_outbox').select('id')
      .where('id', 'in', firsts)
      .where(({ or, eb }) => or([eb('claimed_at', 'is', null), eb('claimed_at', '<', staleBefore)]))
      .orderBy('next_attempt_at').orderBy('id').limit(limit)
  }

  /**
   * Takes one row for one sender: exactly one of any number of concurrent callers gets it. A
   * claim older than `staleBefore` belongs to a process that died mid-send and is taken over.
   * One statement, so the conditions hold at the instant of the write on either engine.
   */
  async claim(id: string, token: string, now: string, staleBefore: string): Promise<SignatureOutboxTable | undefined> {
    const result = await this.db.updateTable('signature_outbox').set({ claim_token: token, claimed_at: now })
      .where('id', '=', id).where('status', '=', 'pending').where('next_attempt_at', '<=', now)
      .where(({ or, eb }) => or([eb('claimed_at', 'is', null), eb('claimed_at', '<', staleBefore)]))
      .where((eb) => firstOfItsTarget(eb, now))
      .executeTakeFirst()
    if (affected(result) !== 1) return undefined
    return this.db.selectFrom('signature_outbox').selectAll().where('id', '=', id).where('claim_token', '=', token).executeTakeFirst()
  }

  /** The outcome of one attempt, written only by the claim's holder, with its attempt row. */
  async settle(row: SignatureOutboxTable, token: string, outcome: {
    status: 'sent' | 'pending' | 'failed'
    nextAttemptAt?: string
    attempt: Omit<SignatureOutboxAttemptTable, 'id' | 'outbox_id' | 'attempt'>
    summary?: string | null
  }): Promise<boolean> {
    const at = new Date(outcome.attempt.started_at).getTime() + outcome.attempt.duration_ms
    const finished = new Date(at).toISOString()
    return this.db.transaction().execute(async (tx) => {
      const result = await tx.updateTable('signature_outbox').set((eb) => ({
        status: outcome.status,
        attempts: eb('attempts', '+', 1),
        next_attempt_at: outcome.nextAttemptAt ?? row.next_attempt_at,
        claim_token: null,
        claimed_at: null,
        last_error: outcome.attempt.error,
        last_status_code: outcome.attempt.status_code,
        sent_at: outcome.status === 'sent' ? finished : null,
        updated_at: finished,
        ...(outcome.summary !== undefined ? { summary: outcome.summary } : {}),
      })).where('id', '=', row.id).where('claim_token', '=', token).executeTakeFirst()
      // Lost: this attempt outlived its claim and another dispatcher took the row over.
      if (affected(result) !== 1) return false
      await tx.insertInto('signature_outbox_attempts').values({ id: orderedId(), outbox_id: row.id, attempt: Number(row.attempts) + 1, ...outcome.attempt }).execute()
      return true
    })
  }

  /**
   * Deletes up to `limit` finished rows (sent, or given up) last changed before `before`, with
   * their attempts, and answers their ids. Pending rows are never touched: a retry still owes its
   * send. Several instances pruning at once delete each row once; the others find it gone.
   */
  async prune(before: string, limit = 500): Promise<string[]> {
    return this.db.transaction().execute(async (tx) => {
      const ids = (await tx.selectFrom('signature_outbox').select('id')
        .where('status', 'in', ['sent', 'failed']).where('updated_at', '<', before)
        .orderBy('updated_at').limit(limit).execute()).map((r) => r.id)
      if (ids.length === 0) return []
      await tx.deleteFrom('signature_outbox_attempts').where('outbox_id', 'in', ids).execute()
      await tx.deleteFrom('signature_outbox').where('id', 'in', ids).where('status', 'in', ['sent', 'failed']).execute()
      return ids
    })
  }

  /** Per channel with pending rows: how many, and the creation time of the oldest (metrics). */
  async pendingByChannel(): Promise<Array<{ channel: OutboxChannel; count: number; oldest: string | null }>> {
    const rows = await this.db.selectFrom('signature_outbox')
      .select((eb) => ['channel', eb.fn.countAll().as('count'), eb.fn.min('created_at').as('oldest')])
      .where('status', '=', 'pending').groupBy('channel').execute()
    return rows.map((r) => ({ channel: r.channel, count: Number(r.count), oldest: (r.oldest as string | null) ?? null }))
  }

  find(id: string) {
    return this.db.selectFrom('signature_outbox').selectAll().where('id', '=', id).executeTakeFirst()
  }

  /** Newest first: the admin pages. */
  list(filter: { channel: OutboxChannel; target?: string }, limit = 200) {
    let query = this.db.selectFrom('signature_outbox').selectAll().where('channel', '=', filter.channel)
    if (filter.target !== undefined) query = query.where('target', '=', filter.target)
    return query.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(limit).execute()
  }

  attemptsOf(ids: readonly string[]) {
    if (ids.length === 0) return Promise.resolve([] as SignatureOutboxAttemptTable[])
    return this.db.selectFrom('signature_outbox_attempts').selectAll().where('outbox_id', 'in', [...ids]).orderBy('outbox_id').orderBy('attempt').execute()
  }
}
