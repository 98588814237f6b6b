// A search finds the users whose name or e-mail contains the needle, case-insensitively, whatever
// index serves it: on PostgreSQL a needle with one '@' is looked up by the local part's end and the
// domain's start (host-app/users/email-search.ts), which must still find a needle inside a longer
// address, addresses the form would refuse (several '@', none, capitals), names that look like
// addresses, and '%', '_' and '\' taken literally. Each search is compared with a contains-match
// over the same users, computed here.
import t from 'tap'
import type { UserRecord } from '../../../core/auth/user-repository.ts'
import { migrateToLatest } from '../../../core/db/migrate.ts'
import { DatabaseUserRepository } from '../../../host-app/users/database-user-repository.ts'
import { prefixEnd } from '../../../host-app/users/email-search.ts'
import { userMigrations } from '../../../host-app/users/migrations/001-users.ts'
import { forEachEngine } from '../../core/db/engines.ts'

const people: Array<[name: string, email: string]> = [
  ['Jane Doe', 'jane@example.com'],
  ['Jane Roe', 'xjane@example.com'],
  ['Janet', 'janet@example.com'],
  ['Max Berg', 'max.berg@example.com.au'],
  ['Mia', 'mia@sub.example.com'],
  ['Ivy', 'ivy@examples.org'],
  ['jane@example.com fan', 'fan@other.org'],
  ['Percent', '100%off@shop.test'],
  ['Under', 'a_b@shop.test'],
  ['Aab', 'aab@shop.test'],
  // Its local part reversed is the upper bound of the range for 'ab@' (reversed 'ba', up to 'bb'), which that range leaves out.
  ['Bee', 'bb@shop.test'],
  ['Back', 'back\\slash@shop.test'],
  ['Quoted', '"a@b"@quoted.test'],
  ['Two ats', 'x@y@two.test'],
  ['No at', 'no-at-all.test'],
  ['Capital', 'UPPER@Example.COM'],
  ['Jørgen', 'jørgen@example.no'],
  ['Ørjan', 'ørjan@example.no'],
  ['Zed', 'zed@'],
  ['At start', '@start.test'],
]

const users: UserRecord[] = people.map(([name, email], i) => ({ id: `u${String(i).padStart(2, '0')}`, name, email, role: 'staff', passwordHash: 'h', sessionVersion: 0 }))

const needles = [
  'jane@example.com', 'JANE@EXAMPLE.COM', 'jane@', 'ane@exa', 'e@e', 'n@example.com', 'jane@example.co', 'example.com',
  '@example.com', '@', 'a', 'jan', 'Doe', '', '   ', '100%', '%', '_', 'a_b', 'a_b@', 'ab@', '\\', 'back\\slash@', 'k\\s',
  'a@b', '"@quoted', 'x@y', 'y@two', 'x@y@two', '@y@', 'upper@example.com', 'jørgen@', 'rgen@example.no', 'ørjan@', 'ø', 'zed@',
  'd@', 'start', 't@', 'no-at', 'com.au', 'fan@other', 'nobody@nowhere',
]

/** What the contract says a search finds: the needle, trimmed, inside the lower-cased name or e-mail. */
function expected(needle: string): string[] {
  const n = needle.trim().toLowerCase()
  return users.filter((u) => !n || u.name.toLowerCase().includes(n) || u.email.toLowerCase().includes(n)).map((u) => u.id).sort()
}

t.test('the upper bound of a prefix is the least string past every string it starts', async (t) => {
  t.equal(prefixEnd('abc'), 'abd')
  t.equal(prefixEnd('a\u{10ffff}'), 'b')
  t.equal(prefixEnd('\u{d7ff}'), '\u{e000}')
  t.equal(prefixEnd('\u{10ffff}\u{10ffff}'), undefined)
  t.equal(prefixEnd('nø'), 'nù')
})

forEachEngine(t, 'a search finds exactly the users whose name or e-mail contains it', async (database, _engine, t) => {
  await migrateToLatest(database.db, userMigrations)
  // Straight into the table: the repository's create() would lower-case the capitals away.
  await database.db.insertInto('users').values(users.map((u) => ({ id: u.id, name: u.name, email: u.email, role: u.role, password_hash: 'h', session_version: 0, created_at: '2026-01-01' }))).execute()
  const repo = new DatabaseUserRepository(database.db)
  for (const search of needles) {
    const result = await repo.list({ page: 1, perPage: 100, search })
    t.same(result.data.map((u) => u.id).sort(), expected(search), `search ${JSON.stringify(search)}`)
    t.equal(result.total, expected(search).length, `search ${JSON.stringify(search)}: its total`)
  }
  // Only the e-mails searched: the name that holds an address is not found by it.
  const emailsOnly = await repo.list({ page: 1, perPage: 100, search: 'jane@example.com', searchFields: ['email'] })
  t.same(emailsOnly.data.map((u) => u.id).sort(), ['u00', 'u01'])
  const namesOnly = await repo.list({ page: 1, perPage: 100, search: 'jane@example.com', searchFields: ['name'] })
  t.same(namesOnly.data.map((u) => u.id), ['u06'])
})
