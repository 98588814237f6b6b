// The other crash: a real server process is SIGKILLed while a webhook is in flight (the receiver
// has the request and has not answered). The row stays claimed by the dead process; after a
// restart, once the claim is older than SIGNATURE_OUTBOX_STALE_CLAIM_MS, it is taken over and sent
// again - with the same webhook-id and body, so a receiver that keeps ids sees one message. This
// is the limit README "E-mail and webhooks" states: a send the receiver got but the sender never
// recorded is repeated, never lost.
import path from 'node:path'
import t from 'tap'
import type { Database } from '../../../../core/db/database.ts'
import { startWebhookPeer } from '../../../helpers/delivery-peers.ts'
import { Client, openInstanceDatabase, startInstance, type Instance } from '../../../helpers/instances.ts'
import { isolatedEnv } from '../../../helpers/test-env.ts'

t.setTimeout(240_000)

const STALE_MS = 1_000

t.test('a claim left mid-send is taken over after the window, the message resent with its id', async (t) => {
  const receiver = await startWebhookPeer(t, { answer: (n) => (n === 0 ? 'hold' : 204) })
  const { env: isolated, cleanup } = await isolatedEnv()
  // The suite's engine: a SQLite file, or (DATABASE_URL set) this test's own PostgreSQL schema.
  const env: Record<string, string> = {
    ...(isolated as Record<string, string>),
    ...(process.env.DATABASE_URL ? { DATABASE_URL: process.env.DATABASE_URL } : {}),
    WEBHOOKS_ALLOW_PRIVATE: 'true', SIGNATURE_OUTBOX_STALE_CLAIM_MS: String(STALE_MS), SIGNATURE_OUTBOX_POLL_MS: '100',
  }
  const instances: Instance[] = []
  let database: Database<any> | undefined
  t.teardown(async () => {
    for (const instance of instances) await instance.stop()
    await database?.close()
    await cleanup()
  })
  const first = await startInstance('killed mid-send', env)
  instances.push(first)
  database = openInstanceDatabase(env)
  const db = database.db
  const admin = new Client(first.url)
  await admin.login('admin@example.com')
  const registered = await admin.request('POST', '/api/webhooks', { url: receiver.url, events: ['session.created'] })
  t.equal(registered.status, 201)
  receiver.useSecret((await registered.json()).data.secret)
  t.equal((await admin.request('POST', '/api/signing-sessions', { template: 'payslip', signable: 'payslip-staff-2026-03' })).status, 201)

  const [held] = await receiver.waitFor(1)
  first.kill()
  await first.stop()
  const left: any[] = await db.selectFrom('signature_outbox').selectAll().where('channel', '=', 'webhook').execute()
  t.equal(left.length, 1)
  t.same([left[0].status, Number(left[0].attempts), left[0].claim_token !== null], ['pending', 0, true], 'the dead process left the row claimed, unsent, no attempt recorded')

  const second = await startInstance('after the crash', env)
  instances.push(second)
  const [, again] = await receiver.waitFor(2)
  t.ok(Date.now() - Date.parse(left[0].claimed_at) >= STALE_MS, 'taken over only after the stale window')
  t.equal(again!.headers['webhook-id'], held!.headers['webhook-id'], 'the same webhook-id')
  t.equal(again!.body, held!.body, 'the same body')
  t.ok(held!.signatureValid && again!.signatureValid, 'both signed')
  t.same([held!.answered, again!.answered], [false, true], 'the first was never acknowledged; the second was')
  // Settled by the second instance: one recorded attempt, sent.
  for (;;) {
    const row: any = await db.selectFrom('signature_outbox').select(['status', 'attempts', 'claim_token']).where('id', '=', left[0].id).executeTakeFirst()
    if (row.status === 'sent') {
      t.same([Number(row.attempts), row.claim_token], [1, null])
      break
    }
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
  t.equal(receiver.deliveries.length, 2, 'no third send')
})
