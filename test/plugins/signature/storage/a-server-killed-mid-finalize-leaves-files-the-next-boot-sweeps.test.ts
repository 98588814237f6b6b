// Issue 36, item 4, with a real crash: a server process (host-app/server.ts) is SIGKILLed in the
// middle of a session finalize, after the signed revision is on the disk and before its rows
// commit — held there by a write lock the test takes on the same database, so the crash lands in
// that window every time (test/helpers/hold-writes-once-seen.ts). The file is then on the disk with no row. The next boot's sweep (grace
// period shortened to 200 ms) removes it, and every file a row references is still there: the
// committed revision of another session, both frozen documents; the request signs on retry.
import { readdir } from 'node:fs/promises'
import path from 'node:path'
import t from 'tap'
import type { Database } from '../../../../core/db/database.ts'
import { eventually } from '../../../helpers/eventually.ts'
import { holdWritesOnceSeen } from '../../../helpers/hold-writes-once-seen.ts'
import { Client, openInstanceDatabase, startInstance, type Instance } from '../../../helpers/instances.ts'
import { isolatedEnv } from '../../../helpers/test-env.ts'
import { STAMP_DATA_URL } from '../signing/helpers.ts'

t.setTimeout(240_000)

t.test('a signed revision written before the crash and never committed is swept at the next boot; nothing referenced goes', async (t) => {
  const { env: isolated, cleanup } = await isolatedEnv()
  const env: Record<string, string> = {
    ...(isolated as Record<string, string>),
    ...(process.env.DATABASE_URL ? { DATABASE_URL: process.env.DATABASE_URL } : {}),
    SIGNATURE_STORAGE_GRACE_MS: '200',
    SIGNATURE_SESSION_STALE_CLAIM_MS: '300',
    SIGNATURE_OUTBOX_DISPATCH: 'false',
    LOG_LEVEL: 'warn',
  }
  const diskRoot = path.join(env.STORAGE_PATH!, 'disks', 'signature')
  let instance: Instance | undefined
  let database: Database<any> | undefined
  let unlock: (() => Promise<void>) | undefined
  t.teardown(async () => {
    await unlock?.()
    instance?.kill()
    await instance?.stop()
    await database?.close()
    await cleanup()
  })

  instance = await startInstance('first', env)
  database = openInstanceDatabase(env)
  const db = database.db
  const admin = new Client(instance.url)
  await admin.login('admin@example.com')
  const staff = new Client(instance.url)
  await staff.login('staff@example.com')
  const created = await staff.request('POST', '/api/signatures', { label: 'Sam', image: STAMP_DATA_URL, certificate: { mode: 'issue' } })
  t.equal(created.status, 201)
  const signature = (await created.json()).data.uuid as string
  const sessions: Array<{ session: string; request: string }> = []
  for (let i = 0; i < 2; i++) {
    const response = await admin.request('POST', '/api/signing-sessions', { template: 'payslip', signable: 'payslip-staff-2026-03', mode: 'parallel' })
    t.equal(response.status, 201, 'a session')
    const session = (await response.json()).data
    sessions.push({ session: session.id, request: session.requests.find((r: { slot: string }) => r.slot === 'employee').id })
  }
  const [committed, crashed] = sessions as [typeof sessions[0], typeof sessions[0]]
  const finalize = async (client: Client, request: string) => client.request('POST', '/app/signature-templates/payslip/signer/finalize',
    { signature, request, placements: [] }, { 'x-csrf-token': await client.csrf() })
  t.equal((await finalize(staff, committed.request)).status, 200, 'the first session is signed and committed before the crash')

  // The second finalize: its claim commits, then the test holds the database's writes, so the
  // signed file is written and its commit waits; the crash comes while it waits. The lock is
  // taken by the look that finds the request claimed (PostgreSQL: on the sessions table, which
  // the claim leaves alone and the commit moves).
  const statusOf = async (id: string) => (await db.selectFrom('signing_session_requests').select('status').where('id', '=', id).executeTakeFirstOrThrow()).status
  const answer = finalize(staff, crashed.request).then((r) => r.status, () => 'killed')
  unlock = await holdWritesOnceSeen(env, {
    table: 'signing_session_requests', id: crashed.request, lockTable: 'signing_sessions',
    state: (row) => {
      if (row.status === 'signing') return 'hold'
      if (row.status === 'pending') return 'wait'
      throw new Error(`the request went from pending to ${String(row.status)} between two looks`)
    },
  })
  t.equal(await statusOf(crashed.request), 'signing', 'the finalize claimed its request, and its commit waits')
  const sessionFolder = path.join(diskRoot, 'sessions', crashed.session)
  const written = async () => (await readdir(sessionFolder)).filter((name) => name.startsWith('001-'))
  t.ok(await eventually(async () => (await written()).length === 1, 60_000), 'the signed revision reached the disk')
  instance.kill()
  t.equal(await answer, 'killed', 'the finalize was cut off by the crash')
  await instance.stop()
  await unlock?.()
  unlock = undefined
  const orphan = `sessions/${crashed.session}/${(await written())[0]}`
  const referenced = await referencedKeys(db)
  t.notOk(referenced.has(orphan), 'the dead process left a signed file no row references')
  t.equal(await statusOf(crashed.request), 'signing', 'and its request claimed')
  t.equal(referenced.size, 3, 'two frozen documents and one committed revision are referenced')

  instance = await startInstance('after the crash', env)
  t.ok(await eventually(async () => !(await files(diskRoot)).includes(orphan), 30_000), 'the boot sweep removed the file no row references')
  const present = new Set(await files(diskRoot))
  for (const key of referenced) t.ok(present.has(key), `still there: ${key}`)
  t.same((await files(diskRoot)).filter((key) => /\.tmp$/.test(key)), [], 'no temporary file is left')

  const again = new Client(instance.url)
  await again.login('staff@example.com')
  const retry = await finalize(again, crashed.request)
  t.equal(retry.status, 200, `the request signs on retry: ${(await retry.clone().text()).slice(0, 200)}`)
  const after = await referencedKeys(db)
  for (const key of after) t.ok(await exists(path.join(diskRoot, key)), `every referenced file exists: ${key}`)
})

/** Every disk key a row points at. */
async function referencedKeys(db: any): Promise<Set<string>> {
  const sessions = await db.selectFrom('signing_sessions').select(['frozen_document_key', 'current_document_key']).execute()
  const requests = await db.selectFrom('signing_session_requests').select('document_key').where('document_key', 'is not', null).execute()
  const signed = await db.selectFrom('digital_signatures').select('document_key').where('document_key', 'is not', null).execute()
  return new Set<string>([
    ...sessions.flatMap((s: { frozen_document_key: string; current_document_key: string }) => [s.frozen_document_key, s.current_document_key]),
    ...[...requests, ...signed].map((r: { document_key: string }) => r.document_key),
  ])
}

async function files(root: string): Promise<string[]> {
  const entries = await readdir(root, { recursive: true, withFileTypes: true })
  return entries.filter((e) => e.isFile()).map((e) => path.relative(root, path.join(e.parentPath, e.name)).split(path.sep).join('/'))
}

async function exists(file: string): Promise<boolean> {
  return readdir(path.dirname(file)).then((names) => names.includes(path.basename(file)), () => false)
}
