// Archive renewal for a cron job: `npm run signatures:renew-timestamps -- --before-days 90`.
// Boots the app as `npm start` does (same environment, database and keys) without listening,
// appends a fresh DSS and document timestamp to every completed session, and every document
// signed in one pass, whose last document timestamp's TSA certificate expires within the given
// days (or that has none), prints one JSON line per document and exits 1 if any failed (a TSA
// down: the next run retries).
import { parseArgs } from 'node:util'
import { buildApp } from '../host-app/app.ts'

const { values } = parseArgs({ options: { 'before-days': { type: 'string', default: '90' } } })
const beforeDays = Number(values['before-days'])
if (!Number.isFinite(beforeDays) || beforeDays < 0) {
  console.error('--before-days must be a non-negative number of days')
  process.exit(2)
}
const app = await buildApp({ logger: false })
let failed = 0
try {
  await app.ready()
  const reports = [...await app.signature.sessions.renewDueTimestamps({ beforeDays }), ...await app.signature.documents.renewDueTimestamps({ beforeDays })]
  for (const report of reports) {
    if (report.outcome === 'failed') failed++
    console.log(JSON.stringify(report))
  }
} finally {
  await app.close()
}
process.exit(failed > 0 ? 1 : 0)
