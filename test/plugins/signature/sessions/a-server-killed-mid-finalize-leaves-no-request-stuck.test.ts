// Issue 15, item 3, with a real crash: a server process (host-app/server.ts) is SIGKILLed while two
// session finalizes are in flight, so both requests stay claimed ('signing') in its database — a
// SQLite file, or a PostgreSQL schema when DATABASE_URL is set. A new process on the same
// database and storage then answers the retry of one (taken over: signed) and the decline of the
// other, once the stale-claim window (300 ms here, through SIGNATURE_SESSION_STALE_CLAIM_MS) is past.
import path from 'node:path'
import t from 'tap'
import type { Database } from '../../../../core/db/database.ts'
import { Client, openInstanceDatabase, startInstance, type Instance } from '../../../helpers/instances.ts'
import { isolatedEnv } from '../../../helpers/test-env.ts'
import { STAMP_DATA_URL } from '../signing/helpers.ts'

t.setTimeout(240_000)

const WINDOW_MS = 300

t.test('a claim left by a killed process is taken over after the window', async (t) => {
  const { env: isolated, cleanup } = await isolatedEnv()
  const env: Record<string, string> = {
    ...(isolated as Record<string, string>),
    ...(process.env.DATABASE_URL ? { DATABASE_URL: process.env.DATABASE_URL } : {}),
    SIGNATURE_SESSION_STALE_CLAIM_MS: String(WINDOW_MS),
    LOG_LEVEL: 'warn',
  }
  let instance: Instance | undefined
  let database: Database<any> | undefined
  t.teardown(async () => {
    await instance?.stop()
    await database?.close()
    await cleanup()
  })

  instance = await startInstance('first', env)
  // The test reads the same database the server writes: the claim is what it waits for.
  database = openInstanceDatabase(env)
  const db = database.db
  const statusOf = async (ids: string[]) => (await db.selectFrom('signing_session_requests').select(['id', 'status']).where('id', 'in', ids).execute())
    .map((r: { status: string }) => r.status)

  const admin = new Client(instance.url)
  await admin.login('admin@example.com')
  const staff = new Client(instance.url)
  await staff.login('staff@example.com')
  const created = await staff.request('POST', '/api/signatures', { label: 'Sam', image: STAMP_DATA_URL, certificate: { mode: 'issue' } })
  t.equal(created.status, 201)
  const signature = (await created.json()).data.uuid as string

  // Two sessions on the payslip (pdf-lib, no browser), parallel so the employee signs at once.
  // Should both finalizes finish before the poll sees both claims, the round is played again.
  let caught: Array<{ session: string; request: string }> = []
  for (let round = 1; round <= 4 && caught.length === 0; round++) {
    const sessions: Array<{ session: string; request: string }> = []
    for (let i = 0; i < 2; i++) {
      const response = await admin.request('POST', '/api/signing-sessions', { template: 'payslip', signable: 'payslip-staff-2026-03', mode: 'parallel' })
      t.equal(response.status, 201)
      const session = (await response.json()).data
      sessions.push({ session: session.id, request: session.requests.find((r: { slot: string }) => r.slot === 'employee').id })
    }
    const csrf = await staff.csrf()
    const finalizes = sessions.map((s) => staff.request('POST', '/app/signature-templates/payslip/signer/finalize',
      { signature, request: s.request, placements: [] }, { 'x-csrf-token': csrf }).then((r) => r.status, () => 'killed'))
    const ids = sessions.map((s) => s.request)
    let statuses = await statusOf(ids)
    while (!statuses.every((s) => s === 'signing') && statuses.every((s) => s === 'pending' || s === 'signing')) {
      await new Promise((resolve) => setImmediate(resolve))
      statuses = await statusOf(ids)
    }
    if (statuses.every((s) => s === 'signing')) {
      instance.kill()
      caught = sessions
    }
    const answers = await Promise.all(finalizes)
    if (caught.length) t.same(answers, ['killed', 'killed'], 'both finalizes were cut off by the crash')
    else t.comment(`round ${round}: a finalize finished before the crash (${statuses.join(', ')}); again`)
  }
  t.equal(caught.length, 2, 'the server was killed with two claims in flight')
  await instance.stop()
  t.same(await statusOf(caught.map((c) => c.request)), ['signing', 'signing'], 'the dead process left both requests claimed')

  instance = await startInstance('after the crash', env)
  const claimedAt = await db.selectFrom('signing_session_requests').select('claimed_at').where('id', '=', caught[0]!.request).executeTakeFirstOrThrow()
  t.ok(Date.now() - Date.parse(claimedAt.claimed_at) > WINDOW_MS, 'the restart took longer than the window')
  const again = new Client(instance.url)
  await again.login('staff@example.com')
  const csrf = await again.csrf()

  const retry = await again.request('POST', '/app/signature-templates/payslip/signer/finalize', { signature, request: caught[0]!.request, placements: [] }, { 'x-csrf-token': csrf })
  t.equal(retry.status, 200, `the retry takes the stale claim over: ${await retry.clone().text()}`)
  const signed = (await retry.json()).data
  t.equal(signed.request.status, 'signed')
  t.match(signed.signed_document_path, /^sessions\//, 'the disk-relative key')

  const decline = await again.request('POST', `/api/signing-sessions/${caught[1]!.session}/requests/${caught[1]!.request}/decline`, { reason: 'Wrong period' })
  t.equal(decline.status, 200, `a stale request can be declined: ${await decline.clone().text()}`)
  t.equal((await decline.json()).data.status, 'declined')
  const rows = await db.selectFrom('signing_session_requests').select(['id', 'status', 'claim_token']).where('id', 'in', caught.map((c) => c.request)).execute()
  t.same(new Map(rows.map((r: { id: string; status: string; claim_token: string | null }) => [r.id, [r.status, r.claim_token]])),
    new Map([[caught[0]!.request, ['signed', null]], [caught[1]!.request, ['declined', null]]]), 'no claim is left behind')
})
