// Issue 20, "done means": a real server process (host-app/server.ts) commits session changes and
// their outbox rows, and is SIGKILLed before sending any of them (it runs with
// SIGNATURE_OUTBOX_DISPATCH=false, so the kill lands between commit and send every time, not by
// luck of timing). After a restart on the same database, every e-mail reaches the SMTP server and
// every webhook the receiver exactly once. On PostgreSQL two instances start together and race to
// send; the claims keep each row to one of them.
import pg from 'pg'
import { randomBytes } from 'node:crypto'
import path from 'node:path'
import t from 'tap'
import { openDatabase, quoteIdentifier, type Database } from '../../../../core/db/database.ts'
import { postgresUnreachable, TEST_DATABASE_URL } from '../../../core/db/engines.ts'
import { startSmtpPeer, startWebhookPeer } from '../../../helpers/delivery-peers.ts'
import { Client, startInstance, type Instance } from '../../../helpers/instances.ts'
import { isolatedEnv } from '../../../helpers/test-env.ts'
import { STAMP_DATA_URL } from '../signing/helpers.ts'

t.setTimeout(300_000)

const ALL_EVENTS = ['session.created', 'session.request.opened', 'session.request.signed', 'session.request.declined', 'session.completed', 'session.cancelled', 'signature.created', 'signature.revoked']

async function untilAllSent(db: Database<any>['db'], total: number): Promise<void> {
  const deadline = Date.now() + 60_000
  for (;;) {
    const rows = await db.selectFrom('signature_outbox').select('status').execute()
    if (rows.length === total && rows.every((r: { status: string }) => r.status === 'sent')) return
    if (Date.now() > deadline) throw new Error(`outbox not drained: ${JSON.stringify(rows)}`)
    // Polling the shared database for a state written by another process; not a fixed wait.
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
}

async function scenario(t: any, engine: 'sqlite' | 'postgres') {
  const smtp = await startSmtpPeer(t)
  const receiver = await startWebhookPeer(t)
  const { env: isolated, cleanup } = await isolatedEnv()
  const env: Record<string, string> = {
    STORAGE_PATH: isolated.STORAGE_PATH!,
    // Unset unless this case is the PostgreSQL one (the suite's PostgreSQL pass sets them for everyone).
    DATABASE_URL: '',
    DATABASE_SCHEMA: '',
    SMTP_URL: smtp.url,
    PUBLIC_URL: 'https://sign.example.test',
    WEBHOOKS_ALLOW_PRIVATE: 'true',
    SIGNATURE_OUTBOX_POLL_MS: '100',
  }
  let schema: string | undefined
  if (engine === 'postgres') {
    schema = `t_${randomBytes(6).toString('hex')}`
    const admin = new pg.Client({ connectionString: TEST_DATABASE_URL })
    await admin.connect()
    await admin.query(`create schema ${quoteIdentifier(schema)}`)
    await admin.end()
    Object.assign(env, { DATABASE_URL: TEST_DATABASE_URL, DATABASE_SCHEMA: schema })
  }
  const instances: Instance[] = []
  let database: Database<any> | undefined
  t.teardown(async () => {
    for (const instance of instances) await instance.stop()
    await database?.close()
    if (schema) {
      const admin = new pg.Client({ connectionString: TEST_DATABASE_URL })
      await admin.connect()
      await admin.query(`drop schema if exists ${quoteIdentifier(schema)} cascade`)
      await admin.end()
    }
    await cleanup()
  })

  const writer = await startInstance('writes, never sends', { ...env, SIGNATURE_OUTBOX_DISPATCH: 'false' })
  instances.push(writer)
  database = openDatabase<any>(schema ? { url: TEST_DATABASE_URL, schema } : { sqliteFile: path.join(env.STORAGE_PATH!, 'database', 'app.sqlite') })
  const db = database.db
  const admin = new Client(writer.url)
  await admin.login('admin@example.com')
  const staff = new Client(writer.url)
  await staff.login('staff@example.com')

  const registered = await admin.request('POST', '/api/webhooks', { url: receiver.url, events: ALL_EVENTS, description: 'crash test' })
  t.equal(registered.status, 201)
  receiver.useSecret((await registered.json()).data.secret)
  t.equal((await staff.request('POST', '/api/signatures', { label: 'Sam', image: STAMP_DATA_URL, certificate: { mode: 'issue' } })).status, 201)
  const create = async () => {
    const response = await admin.request('POST', '/api/signing-sessions', { template: 'payslip', signable: 'payslip-staff-2026-03', mode: 'sequential' })
    t.equal(response.status, 201)
    return (await response.json()).data
  }
  // One session declined by the employee, one cancelled by its creator.
  const declined = await create()
  const employee = declined.requests.find((r: { slot: string }) => r.slot === 'employee').id
  t.equal((await staff.request('POST', `/api/signing-sessions/${declined.id}/requests/${employee}/decline`, { reason: 'Wrong amount' })).status, 200)
  const cancelled = await create()
  t.equal((await admin.request('POST', `/api/signing-sessions/${cancelled.id}/cancel`)).status, 200)

  const rows = await db.selectFrom('signature_outbox').select(['id', 'message_id', 'channel', 'topic', 'target', 'status', 'attempts']).orderBy('id').execute()
  t.same(rows.filter((r: any) => r.channel === 'webhook').map((r: any) => r.topic),
    ['signature.created', 'session.created', 'session.request.declined', 'session.created', 'session.cancelled'], 'every webhook row was committed')
  t.same(rows.filter((r: any) => r.channel === 'mail').map((r: any) => [r.topic, r.target]),
    [['invitation', 'u-admin'], ['declined', 'u-admin'], ['invitation', 'u-admin'], ['cancelled', 'u-staff']], 'every mail row was committed')
  t.ok(rows.every((r: any) => r.status === 'pending' && Number(r.attempts) === 0), 'none of them sent yet')

  writer.kill()
  await writer.stop()
  t.equal(smtp.messages.length + receiver.deliveries.length, 0, 'the killed process sent nothing')

  // The restart: one instance on SQLite; two racing on PostgreSQL.
  const count = engine === 'postgres' ? 2 : 1
  instances.push(...await Promise.all(Array.from({ length: count }, (_, i) => startInstance(`sender ${i + 1}`, env))))
  const mails = rows.filter((r: any) => r.channel === 'mail')
  const hooks = rows.filter((r: any) => r.channel === 'webhook')
  await Promise.all([smtp.waitFor(mails.length), receiver.waitFor(hooks.length)])
  await untilAllSent(db, rows.length)

  t.equal(smtp.messages.length, mails.length, 'each e-mail reached the SMTP server once')
  t.equal(receiver.deliveries.length, hooks.length, 'each webhook reached the receiver once')
  const host = 'sign.example.test'
  t.same(smtp.messages.map((m) => m.messageId).sort(), mails.map((r: any) => `<${r.message_id}@${host}>`).sort(), 'the messages are the committed rows, one each')
  t.same(receiver.deliveries.map((d) => d.json.type), hooks.map((r: any) => r.topic), 'the webhooks are the committed rows, in order')
  t.same(receiver.deliveries.map((d) => d.headers['webhook-id']), hooks.map((r: any) => r.message_id))
  t.ok(receiver.deliveries.every((d) => d.signatureValid), 'each signed with the endpoint\'s secret')
  const attempts = await db.selectFrom('signature_outbox').select('attempts').execute()
  t.ok(attempts.every((r: any) => Number(r.attempts) === 1), 'one attempt each')
}

t.test('killed between commit and send (sqlite): every message once after the restart', (t) => scenario(t, 'sqlite'))

t.test('killed between commit and send (postgres, two instances racing)', async (t: any) => {
  const reason = await postgresUnreachable()
  if (reason) return t.skip(reason)
  await scenario(t, 'postgres')
})
