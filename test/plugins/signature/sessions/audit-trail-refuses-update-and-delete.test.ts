import { randomUUID } from 'node:crypto'
import { sql } from 'kysely'
import t from 'tap'
import { migrateToLatest } from '../../../../core/db/migrate.ts'
import { signatureMigrations } from '../../../../plugins/signature/database/migrations/index.ts'
import { forEachEngine } from '../../../core/db/engines.ts'

const now = () => new Date().toISOString()

forEachEngine(t, 'the audit trail takes new events and refuses every change to old ones, whoever connects', async (database, engine, st) => {
  await migrateToLatest(database.db, signatureMigrations)
  const db = database.db
  const sessionId = randomUUID()
  await db.insertInto('signing_sessions').values({
    id: sessionId, template_key: 'contract', signable_id: 'r-1', signable_title: 'Contract', mode: 'sequential', status: 'open',
    created_by: 'u-admin', frozen_document_key: 'k', frozen_sha256: 'a'.repeat(64), current_document_key: 'k', current_sha256: 'a'.repeat(64),
    revision: 0, created_at: now(), updated_at: now(),
  }).execute()
  const event = (detail: string) => ({ id: randomUUID(), session_id: sessionId, event: 'created', actor_user_id: 'u-admin', detail, created_at: now() })
  const first = event('first')
  await db.insertInto('signing_session_events').values(first).execute()
  await db.insertInto('signing_session_events').values(event('second')).execute()

  await st.rejects(db.updateTable('signing_session_events').set({ detail: 'rewritten' }).where('id', '=', first.id).execute(), /append-only/, 'UPDATE refused')
  await st.rejects(db.deleteFrom('signing_session_events').where('id', '=', first.id).execute(), /append-only/, 'DELETE refused')
  await st.rejects(db.deleteFrom('signing_sessions').where('id', '=', sessionId).execute(), /append-only/, 'deleting the session would cascade to its events: refused')
  if (engine === 'postgres') await st.rejects(sql`truncate signing_session_events`.execute(db), /append-only/, 'TRUNCATE refused')

  const rows = await db.selectFrom('signing_session_events').select(['id', 'detail']).orderBy('detail').execute()
  st.same(rows.map((r: { detail: string }) => r.detail), ['first', 'second'], 'both events, unchanged')
  st.equal((await db.selectFrom('signing_sessions').select('id').execute()).length, 1, 'the session is still there')
  // Sessions themselves still change as signers sign: only their events are frozen.
  await db.updateTable('signing_sessions').set({ status: 'completed', updated_at: now() }).where('id', '=', sessionId).execute()
  st.equal((await db.selectFrom('signing_sessions').select('status').executeTakeFirstOrThrow()).status, 'completed')
})
