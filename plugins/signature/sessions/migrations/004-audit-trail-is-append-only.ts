import { PostgresAdapter, sql, type Kysely, type Migration } from 'kysely'

// The audit trail of signing sessions is evidence: who signed or declined what, from where, and
// the document's SHA-256 before and after. The repository only ever inserts into it; these
// triggers make the database itself refuse an UPDATE or DELETE (and, in PostgreSQL, a TRUNCATE),
// whoever connects. A session with events can therefore no longer be deleted either: its
// events would go with it (ON DELETE CASCADE), and the trigger stops that too.
const MESSAGE = 'signing_session_events is append-only'

export const auditTrailIsAppendOnly: Migration = {
  async up(db: Kysely<unknown>) {
    if (db.getExecutor().adapter instanceof PostgresAdapter) {
      await sql`
        create function signing_session_events_append_only() returns trigger language plpgsql as $$
        begin
          raise exception using message = ${sql.lit(MESSAGE)}, errcode = 'restrict_violation';
        end
        $$`.execute(db)
      await sql`create trigger signing_session_events_no_change before update or delete on signing_session_events
        for each row execute function signing_session_events_append_only()`.execute(db)
      await sql`create trigger signing_session_events_no_truncate before truncate on signing_session_events
        for each statement execute function signing_session_events_append_only()`.execute(db)
      return
    }
    for (const operation of ['update', 'delete'] as const) {
      await sql`create trigger ${sql.raw(`signing_session_events_no_${operation}`)} before ${sql.raw(operation)} on signing_session_events
        begin select raise(abort, ${sql.lit(MESSAGE)}); end`.execute(db)
    }
  },
  async down(db: Kysely<unknown>) {
    if (db.getExecutor().adapter instanceof PostgresAdapter) {
      await sql`drop trigger signing_session_events_no_truncate on signing_session_events`.execute(db)
      await sql`drop trigger signing_session_events_no_change on signing_session_events`.execute(db)
      await sql`drop function signing_session_events_append_only()`.execute(db)
      return
    }
    await sql`drop trigger signing_session_events_no_update`.execute(db)
    await sql`drop trigger signing_session_events_no_delete`.execute(db)
  },
}
