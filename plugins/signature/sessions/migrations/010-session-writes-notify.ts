import { notifyWritesTo } from '../../../../core/db/postgres-write-stamp.ts'

// The top bar's Inbox count is kept between pages (sessions/kept-until-written.ts) until the database
// changes. On PostgreSQL, another instance's change to these tables reaches this one as a
// notification sent when it commits; the count reads nothing else.
export const sessionWritesNotify = notifyWritesTo(['signing_sessions', 'signing_session_requests'])
