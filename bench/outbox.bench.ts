// What the outbox costs and how fast it drains, on SQLite and (when reachable) PostgreSQL:
// 1. an audit event's transaction without an outbox (baseline) and with one (a webhook row for
//    each of 3 subscribed endpoints);
// 2. commit -> a real local HTTP receiver has the webhook (the kick after commit, no poll);
// 3. draining 10,000 webhook rows (OUTBOX_ROWS) over 20 endpoints to that receiver, with one
//    dispatcher and with two on connections of their own (two instances), and the pick query's time.
// Run: node --import tsx bench/outbox.bench.ts   (never part of npm test)
import { randomBytes, randomUUID } from 'node:crypto'
import { mkdtemp, rm } from 'node:fs/promises'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import path from 'node:path'
import pg from 'pg'
import { openDatabase, quoteIdentifier, type Database } from '../core/db/database.ts'
import { migrateToLatest } from '../core/db/migrate.ts'
import { signatureMigrations } from '../plugins/signature/database/migrations/index.ts'
import { SecretBox } from '../plugins/signature/library/secret-box.ts'
import { OutboxDispatcher } from '../plugins/signature/outbox/outbox-dispatcher.ts'
import { OutboxRepository } from '../plugins/signature/outbox/outbox-repository.ts'
import { OutboxWriter } from '../plugins/signature/outbox/outbox-writer.ts'
import { DEFAULT_RETRY } from '../plugins/signature/outbox/retry-policy.ts'
import { sessionEvent } from '../plugins/signature/sessions/session-events.ts'
import { sessionOutbox } from '../plugins/signature/sessions/session-notifications.ts'
import { SessionRepository } from '../plugins/signature/sessions/session-repository.ts'
import { EndpointRepository } from '../plugins/signature/webhooks/endpoint-repository.ts'
import { WebhookSender } from '../plugins/signature/webhooks/webhook-sender.ts'
import { median } from './lib/rows.ts'

const PG_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test'

let onArrival: (() => void) | null = null
let arrived = 0
const receiver = createServer((request, response) => {
  request.resume().on('end', () => { arrived++; response.writeHead(204).end(); onArrival?.() })
})
await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', () => resolve()))
const receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`

const ROWS = Number(process.env.OUTBOX_ROWS ?? 10_000)

async function openEngine(engine: 'sqlite' | 'postgres'): Promise<{ database: Database<any>; another: () => Database<any>; close: () => Promise<void> } | null> {
  if (engine === 'sqlite') {
    const dir = await mkdtemp(path.join(tmpdir(), 'outbox-bench-'))
    const database = openDatabase<any>({ sqliteFile: path.join(dir, 'bench.sqlite') })
    return { database, another: () => openDatabase<any>({ sqliteFile: path.join(dir, 'bench.sqlite') }), close: async () => { await database.close(); await rm(dir, { recursive: true, force: true }) } }
  }
  const schema = `b_${randomBytes(6).toString('hex')}`
  const admin = new pg.Client({ connectionString: PG_URL })
  try { await admin.connect() } catch { return null }
  await admin.query(`create schema ${quoteIdentifier(schema)}`)
  const database = openDatabase<any>({ url: PG_URL, schema })
  return { database, another: () => openDatabase<any>({ url: PG_URL, schema }), close: async () => { await database.close(); await admin.query(`drop schema ${quoteIdentifier(schema)} cascade`); await admin.end() } }
}

async function run(engine: 'sqlite' | 'postgres') {
  const opened = await openEngine(engine)
  if (!opened) return console.log(`${engine}: not reachable, skipped`)
  const { database, another, close } = opened
  const db = database.db
  await migrateToLatest(db, signatureMigrations)
  const secrets = new SecretBox(randomBytes(32))
  const outbox = new OutboxRepository(db)
  const endpoints = new EndpointRepository(db)
  const writer = new OutboxWriter(outbox, endpoints)
  const at = new Date().toISOString()
  for (let i = 0; i < 3; i++) {
    const id = randomUUID()
    await endpoints.insert({ id, url: receiverUrl, description: '', events: JSON.stringify(['session.request.opened']), secret_sealed: secrets.seal('whsec_' + randomBytes(24).toString('base64'), id), status: 'active', created_by: 'u', created_at: at, updated_at: at })
  }
  const sessionId = randomUUID()
  const plain = new SessionRepository(db)
  await plain.insertSession({ id: sessionId, template_key: 't', signable_id: 's', signable_title: 'S', mode: 'parallel', status: 'active', created_by: 'u', frozen_document_key: 'k', frozen_sha256: 'x', current_document_key: 'k', current_sha256: 'x', revision: 0, created_at: at, updated_at: at, closed_at: null },
    [{ id: randomUUID(), session_id: sessionId, slot_key: 'a', field_name: 'a', signer_user_id: 'u', sign_order: 1, status: 'pending', page: 1, x: 0, y: 0, width: 10, height: 10, claim_token: null, claimed_at: null, signature_uuid: null, document_key: null, document_sha256: null, decline_reason: null, signed_at: null, declined_at: null, created_at: at, updated_at: at }],
    sessionEvent({ sessionId, requestId: null, event: 'created', actor: 'u', sha256Before: null, sha256After: 'x', at }))
  const withOutbox = new SessionRepository(db, sessionOutbox(writer))
  const opened1 = () => sessionEvent({ sessionId, requestId: null, event: 'opened', actor: 'u', sha256Before: 'x', sha256After: 'x', at: new Date().toISOString() })
  const time = async (repo: SessionRepository, n: number) => {
    const samples: number[] = []
    for (let i = 0; i < n; i++) { const t0 = performance.now(); await repo.appendEvent(opened1()); samples.push(performance.now() - t0) }
    return median(samples)
  }
  await time(plain, 50); await time(withOutbox, 50)
  const base = await time(plain, 300)
  const ours = await time(withOutbox, 300)
  console.log(`${engine}: audit event transaction: ${base.toFixed(3)} ms without outbox, ${ours.toFixed(3)} ms with 3 webhook rows (x${(ours / base).toFixed(2)})`)
  await db.deleteFrom('signature_outbox').execute()

  const sender = new WebhookSender({ endpoints, secrets, allowPrivate: true })
  const dispatcher = () => new OutboxDispatcher({ repository: outbox, senders: { webhook: sender, mail: sender }, retry: DEFAULT_RETRY, staleClaimMs: 60_000, batchSize: 50 })
  const d = dispatcher()
  writer.afterCommit(() => d.kick())
  const latencies: number[] = []
  for (let i = 0; i < 50; i++) {
    const t0 = performance.now()
    const got = new Promise<void>((resolve) => { const want = arrived + 3; onArrival = () => { if (arrived >= want) resolve() } })
    await withOutbox.appendEvent(opened1())
    await got
    latencies.push(performance.now() - t0)
  }
  await d.runOnce()
  console.log(`${engine}: commit -> receiver has all 3 webhooks: median ${median(latencies).toFixed(1)} ms, max ${Math.max(...latencies).toFixed(1)} ms (50 events)`)
  writer.afterCommit(() => {})

  const ids = (await endpoints.listActive()).map((e) => e.id)
  for (let i = ids.length; i < 20; i++) {
    const id = randomUUID()
    await endpoints.insert({ id, url: receiverUrl, description: '', events: '[]', secret_sealed: secrets.seal('whsec_' + randomBytes(24).toString('base64'), id), status: 'active', created_by: 'u', created_at: at, updated_at: at })
    ids.push(id)
  }
  // Each dispatcher is an instance: a database connection (pool) and a repository of its own,
  // whose pick query (repository.due) is timed.
  const instance = (picks: number[]) => {
    const own = another()
    const repository = new OutboxRepository(own.db)
    const due = repository.due.bind(repository)
    repository.due = async (...args) => { const t0 = performance.now(); try { return await due(...args) } finally { picks.push(performance.now() - t0) } }
    return { dispatcher: new OutboxDispatcher({ repository, senders: { webhook: sender, mail: sender }, retry: DEFAULT_RETRY, staleClaimMs: 60_000, batchSize: 50 }), close: () => own.close() }
  }
  for (const count of [1, 2]) {
    for (let i = 0; i < ROWS; i += 1000) {
      await db.transaction().execute((tx: any) => outbox.insert(tx, Array.from({ length: Math.min(1000, ROWS - i) }, (_, j) => ({ channel: 'webhook' as const, topic: 'webhook.test', target: ids[(i + j) % 20]!, payload: { type: 'webhook.test', created_at: at, data: { i: i + j } } })), at))
    }
    const before = arrived
    const picks: number[] = []
    const instances = Array.from({ length: count }, () => instance(picks))
    const t0 = performance.now()
    await Promise.all(instances.map((i) => i.dispatcher.runOnce()))
    const seconds = (performance.now() - t0) / 1000
    await Promise.all(instances.map((i) => i.close()))
    const pending = await db.selectFrom('signature_outbox').select('id').where('status', '=', 'pending').execute()
    const sorted = [...picks].sort((a, b) => a - b)
    console.log(`${engine}: drained ${ROWS} rows / 20 endpoints with ${count} instance(s): ${(ROWS / seconds).toFixed(0)} rows/s (${seconds.toFixed(2)} s), received ${arrived - before}, left pending ${pending.length}; pick query median ${median(picks).toFixed(2)} ms, p99 ${sorted[Math.floor(sorted.length * 0.99)]?.toFixed(2)} ms over ${picks.length} picks`)
  }
  await sender.close()
  await close()
}

await run('sqlite')
await run('postgres')
receiver.close()
