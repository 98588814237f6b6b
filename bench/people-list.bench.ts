// People list at scale: search + sort + page over 100,000 in-memory users.
// Bar (issue 9): p50 < 10 ms, p99 < 30 ms. Run: node --import tsx bench/people-list.bench.ts
// The measurement itself lives in sections/people-list.ts, shared with `npm run bench`.
import { measurePeopleList } from './sections/people-list.ts'

const { users, queries, indexBuildMs, p50, p99 } = await measurePeopleList(Number(process.env.USERS ?? 100_000))
console.table([{ users, queries, 'index builds (3 fields) ms': indexBuildMs.toFixed(1), 'p50 ms': p50.toFixed(2), 'p99 ms': p99.toFixed(2), 'bar p50<10 p99<30': p50 < 10 && p99 < 30 ? 'met' : 'NOT met' }])
