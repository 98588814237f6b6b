// Migration 013 relaxes signing_session_requests.signer_user_id to NULL (a signer by e-mail
// address). SQLite cannot drop a NOT NULL, so the table is rebuilt there: every row, its unique
// (session, slot) rule and the audit trail's append-only rule survive, on both engines.
import t from 'tap'
import { migrateToLatest } from '../../../../core/db/migrate.ts'
import { signatureMigrations } from '../../../../plugins/signature/database/migrations/index.ts'
import { forEachEngine } from '../../../core/db/engines.ts'

const before = Object.fromEntries(Object.entries(signatureMigrations).filter(([name]) => name < 'signature-013'))
const at = '2026-01-01T00:00:00.000Z'
const request = (id: string, slot: string, user: string | null) => ({
  id, session_id: 's-1', slot_key: slot, field_name: slot, signer_user_id: user, sign_order: 1, status: 'pending', page: 1, x: 1, y: 2, width: 30, height: 40,
  claim_token: null, claimed_at: null, signature_uuid: null, document_key: null, document_sha256: null, decline_reason: null, signed_at: null, declined_at: null,
  created_at: at, updated_at: at,
})

forEachEngine(t, 'migration 013 keeps the requests and allows a request without a user', async (database, _engine, st) => {
  const db = database.db as any
  await migrateToLatest(db, before)
  await db.insertInto('signing_sessions').values({
    id: 's-1', template_key: 'agreement', signable_id: 'ag-1', signable_title: 'Agreement', mode: 'sequential', status: 'active', created_by: 'u-ada',
    frozen_document_key: 'k', frozen_sha256: 'a', current_document_key: 'k', current_sha256: 'a', revision: 0, created_at: at, updated_at: at, closed_at: null,
  }).execute()
  await db.insertInto('signing_session_requests').values([request('r-1', 'party-a', 'u-alice'), request('r-2', 'party-b', 'u-bruno')]).execute()
  await db.insertInto('signing_session_events').values({ id: 'e-1', session_id: 's-1', request_id: null, event: 'created', actor_user_id: 'u-ada', ip_address: null, sha256_before: null, sha256_after: 'a', detail: null, created_at: at }).execute()

  const upTo013 = Object.fromEntries(Object.entries(signatureMigrations).filter(([name]) => name <= 'signature-013-documents-and-external-signers'))
  st.same(await migrateToLatest(db, upTo013), ['signature-013-documents-and-external-signers'])
  const rows = await db.selectFrom('signing_session_requests').selectAll().orderBy('id').execute()
  st.same(rows.map((r: any) => [r.id, r.signer_user_id, Number(r.x), Number(r.height), r.signer_email]), [['r-1', 'u-alice', 1, 40, null], ['r-2', 'u-bruno', 1, 40, null]])
  await db.insertInto('signing_session_requests').values({ ...request('r-3', 'signer-3', null), signer_email: 'erin@example.net', signer_name: 'Erin' }).execute()
  st.equal((await db.selectFrom('signing_session_requests').select('signer_email').where('id', '=', 'r-3').executeTakeFirst()).signer_email, 'erin@example.net')
  await st.rejects(db.insertInto('signing_session_requests').values(request('r-4', 'party-a', 'u-chen')).execute(), 'one request per slot still')
  await st.rejects(db.deleteFrom('signing_session_events').execute(), 'the trail is still append-only')
  st.same(await migrateToLatest(db, upTo013), [], 'nothing left to do')
})
