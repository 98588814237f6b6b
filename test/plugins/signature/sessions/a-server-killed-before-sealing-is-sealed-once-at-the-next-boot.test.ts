// Issue 36, item 5, with a real crash: the last signature of a session commits, and the server
// process is SIGKILLed while it seals the document (B-LTA) — held at the seal's commit by a write
// lock the test takes on the same database (test/helpers/hold-writes-once-seen.ts), so the crash
// lands there every time. The session is
// left completed at B-T. Two instances then boot at once on the same database and storage: the
// service's own seal retry seals it, exactly once (one 'sealed' event, one more revision), with
// no command run, and the sealed file the dead process wrote is swept.
import { readdir, readFile } from 'node:fs/promises'
import path from 'node:path'
import t from 'tap'
import type { Database } from '../../../../core/db/database.ts'
import { pdfsig } from '../../../fixtures/pdf/checkers.ts'
import { eventually } from '../../../helpers/eventually.ts'
import { holdWritesOnceSeen } from '../../../helpers/hold-writes-once-seen.ts'
import { Client, openInstanceDatabase, startInstance, type Instance } from '../../../helpers/instances.ts'
import { isolatedEnv } from '../../../helpers/test-env.ts'
import { STAMP_DATA_URL } from '../signing/helpers.ts'

t.setTimeout(300_000)

t.test('a session completed but never sealed before a crash is sealed once by the instances that boot next', async (t) => {
  const { env: isolated, cleanup } = await isolatedEnv()
  const env: Record<string, string> = {
    ...(isolated as Record<string, string>),
    ...(process.env.DATABASE_URL ? { DATABASE_URL: process.env.DATABASE_URL } : {}),
    SIGNATURE_SESSION_STALE_CLAIM_MS: '300',
    SIGNATURE_STORAGE_GRACE_MS: '200',
    // At boot only: the test waits for those passes, not for a timer.
    SIGNATURE_SEAL_RETRY_EVERY_MS: '0',
    SIGNATURE_OUTBOX_DISPATCH: 'false',
    LOG_LEVEL: 'warn',
  }
  const diskRoot = path.join(env.STORAGE_PATH!, 'disks', 'signature')
  const instances: Instance[] = []
  let database: Database<any> | undefined
  let release: (() => Promise<void>) | undefined
  t.teardown(async () => {
    await release?.()
    for (const instance of instances) instance.kill()
    await Promise.all(instances.map((i) => i.stop()))
    await database?.close()
    await cleanup()
  })

  const first = await startInstance('first', env)
  instances.push(first)
  database = openInstanceDatabase(env)
  const db = database.db
  const admin = new Client(first.url)
  await admin.login('admin@example.com')
  const staff = new Client(first.url)
  await staff.login('staff@example.com')
  const librarySignature = async (client: Client) => {
    const created = await client.request('POST', '/api/signatures', { label: 'Mine', image: STAMP_DATA_URL, certificate: { mode: 'issue' } })
    t.equal(created.status, 201, 'a library signature')
    return (await created.json()).data.uuid as string
  }
  const created = await admin.request('POST', '/api/signing-sessions', { template: 'payslip', signable: 'payslip-staff-2026-03', mode: 'parallel' })
  t.equal(created.status, 201, 'a session with two signers')
  const session = (await created.json()).data
  const requestOf = (slot: string) => session.requests.find((r: { slot: string }) => r.slot === slot).id as string
  const finalize = async (client: Client, signature: string, request: string) => client.request('POST', '/app/signature-templates/payslip/signer/finalize',
    { signature, request, placements: [] }, { 'x-csrf-token': await client.csrf() })
  t.equal((await finalize(admin, await librarySignature(admin), requestOf('payroll'))).status, 200, 'the payroll officer signs')

  // The employee's is the last signature: it commits (the session completes), then the sealing
  // starts; the test holds the database's writes from then on, so the sealed file is written
  // and its commit waits; the crash comes while it waits.
  const sessionRow = () => db.selectFrom('signing_sessions').selectAll().where('id', '=', session.id).executeTakeFirstOrThrow()
  const sealedEvents = async () => (await db.selectFrom('signing_session_events').select('id').where('session_id', '=', session.id).where('event', '=', 'sealed').execute()).length
  const sealedFiles = async () => (await readdir(path.join(diskRoot, 'sessions', session.id))).filter((name) => name.includes('-sealed-'))
  const staffSignature = await librarySignature(staff)
  const answer = finalize(staff, staffSignature, requestOf('employee')).then((r) => r.status, () => 'killed')
  release = await holdWritesOnceSeen(env, {
    table: 'signing_sessions', id: session.id, lockTable: 'signing_sessions',
    state: (row) => {
      if (row.status !== 'completed') return 'wait'
      if (Number(row.revision) === 2) return 'hold'
      throw new Error(`the session was sealed (revision ${String(row.revision)}) between two looks`)
    },
  })
  t.equal((await sessionRow()).status, 'completed', 'the last signature committed')
  t.ok(await eventually(async () => (await sealedFiles()).length === 1, 60_000), 'the sealing wrote its file')
  first.kill()
  t.equal(await answer, 'killed', 'the request was cut off by the crash')
  await first.stop()
  instances.length = 0
  await release()
  release = undefined
  const crashed = await sessionRow()
  t.match(crashed, { status: 'completed', revision: 2 }, 'the session is completed at its last signature\'s revision')
  t.equal(await sealedEvents(), 0, 'and was never sealed (B-T)')
  const leftover = (await sealedFiles())[0]!

  // Two instances at once, as after a redeploy; each runs the seal retry at boot.
  instances.push(...await Promise.all([startInstance('second', env), startInstance('third', env)]))
  t.ok(await eventually(async () => (await sealedEvents()) > 0, 60_000), 'the service sealed the session by itself')
  // A stop waits for the instance's passes in progress: after both, nothing more can come.
  await Promise.all(instances.map((i) => i.stop()))
  instances.length = 0
  const sealed = await sessionRow()
  t.equal(await sealedEvents(), 1, 'sealed exactly once across the two instances')
  t.equal(sealed.revision, 3, 'one revision more')
  t.match(sealed.current_document_key, /\/003-sealed-[0-9a-f]{8}\.pdf$/, 'the current document is the sealed revision')
  t.same(await sealedFiles(), [path.basename(sealed.current_document_key)], 'one sealed file on the disk: the dead process\'s was swept')
  t.not(path.basename(sealed.current_document_key), leftover, 'made by the new instances')
  const { signatures } = await pdfsig(await readFile(path.join(diskRoot, sealed.current_document_key)))
  const last = signatures.at(-1)
  t.match(last, { fieldName: 'Document timestamp', totalDocumentSigned: true }, 'B-LTA (pdfsig): a document timestamp over the whole file')
  t.ok(signatures.filter((s) => s !== last).every((s) => s.valid), 'pdfsig: every signature under it is valid')
})
