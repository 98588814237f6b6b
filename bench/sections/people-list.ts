// Row 3: the People list over 100,000 in-memory users (search + sort + page), the logic of
// bench/people-list.bench.ts, which now calls measurePeopleList() from here.
import { performance } from 'node:perf_hooks'
import type { UserListQuery, UserRecord } from '../../core/auth/user-repository.ts'
import { MemoryUserRepository } from '../../host-app/users/memory-user-repository.ts'
import { ms, percentile, type Row } from '../lib/rows.ts'

const words = ['ada', 'max', 'sam', 'lee', 'kim', 'ana', 'bo', 'eve', 'ivy', 'joe', 'zoe', 'ray']
const roles = ['admin', 'manager', 'staff']

function makeUsers(n: number): UserRecord[] {
  let seed = 42
  const rand = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31)
  return Array.from({ length: n }, (_, i) => {
    const name = `${words[Math.floor(rand() * words.length)]} ${words[Math.floor(rand() * words.length)]}son ${i}`
    return { id: `u-${i}`, name, email: `user${i}@example.com`, role: roles[i % 3]!, passwordHash: 'x', sessionVersion: 0 }
  })
}

export interface PeopleListResult { users: number; queries: number; indexBuildMs: number; p50: number; p99: number; max: number }

export async function measurePeopleList(count = 100_000, queryCount = 400): Promise<PeopleListResult> {
  const repo = new MemoryUserRepository(makeUsers(count))
  const queries: UserListQuery[] = Array.from({ length: queryCount }, (_, i) => ({
    page: 1 + (i % 50),
    perPage: 25,
    sort: { field: (['name', 'email', 'role'] as const)[i % 3]!, direction: i % 2 ? 'desc' : 'asc' },
    search: i % 4 === 0 ? undefined : words[i % words.length],
  }))

  // The first query per sort field builds that field's index once; time it apart.
  const coldStart = performance.now()
  for (const field of ['name', 'email', 'role'] as const) await repo.list({ page: 1, perPage: 25, sort: { field, direction: 'asc' } })
  const indexBuildMs = performance.now() - coldStart

  // One write every 20 queries, as an admin screen would see: indexes must stay correct and cheap.
  const times: number[] = []
  for (const [i, query] of queries.entries()) {
    if (i % 20 === 19) await repo.update(`u-${i}`, { name: `renamed ${i}` })
    const start = performance.now()
    await repo.list(query)
    times.push(performance.now() - start)
  }
  return { users: count, queries: queryCount, indexBuildMs, p50: percentile(times, 50), p99: percentile(times, 99), max: Math.max(...times) }
}

export async function run(): Promise<Row[]> {
  const result = await measurePeopleList(Number(process.env.USERS ?? 100_000))
  return [{
    id: '3', what: `People list, ${result.users.toLocaleString('en-US')} users: search + sort + page (${result.queries} queries, 1 write per 20)`,
    ours: `p50 ${ms(result.p50)}, p99 ${ms(result.p99)}`, baseline: `(index build ${ms(result.indexBuildMs)}, once)`, ratio: '-',
    bar: 'p50 < 10 ms, p99 < 30 ms', met: result.p50 < 10 && result.p99 < 30, data: { ...result },
  }]
}
