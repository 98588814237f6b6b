// Two real instances (separate processes) on one PostgreSQL schema, one Redis and one storage
// folder, as behind a load balancer. Skipped, with the reason, where PostgreSQL or Redis is absent.
import { randomBytes } from 'node:crypto'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { Redis } from 'ioredis'
import pg from 'pg'
import t from 'tap'
import { mupdfChangeHistory, pdfsig, qpdfCheck } from '../fixtures/pdf/checkers.ts'
import { makeStampPng } from '../fixtures/pdf/stamp-image.ts'
import { eventually } from '../helpers/eventually.ts'
import { Client, startInstance, type Instance } from '../helpers/instances.ts'

const DATABASE_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test'
const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379'

async function unavailable(): Promise<string | false> {
  const client = new pg.Client({ connectionString: DATABASE_URL, connectionTimeoutMillis: 2000 })
  try {
    await client.connect()
  } catch (error) {
    return `PostgreSQL not reachable: ${(error as Error).message}`
  } finally {
    await client.end().catch(() => {})
  }
  const redis = new Redis(REDIS_URL, { lazyConnect: true, connectTimeout: 1500, maxRetriesPerRequest: 0, retryStrategy: () => null })
  try {
    await redis.connect()
    return false
  } catch (error) {
    return `Redis not reachable: ${(error as Error).message}`
  } finally {
    redis.disconnect()
  }
}

t.setTimeout(600_000)

t.test('two instances behind one load balancer', { skip: await unavailable() }, async (t) => {
  const schema = `scale_${randomBytes(5).toString('hex')}`
  const storage = await mkdtemp(path.join(tmpdir(), 'scale-out-'))
  const admin = new pg.Client({ connectionString: DATABASE_URL })
  await admin.connect()
  await admin.query(`create schema "${schema}"`)
  const env = {
    DATABASE_URL, DATABASE_SCHEMA: schema, REDIS_URL, USERS_STORE: 'database', STORAGE_PATH: storage,
    SESSION_KEY: randomBytes(32).toString('hex'), SIGNATURE_ENCRYPTION_KEY: randomBytes(32).toString('hex'),
  }
  // Both boot at once: migrations, demo users, the CA and key files must each happen once.
  let [a, b] = await Promise.all([startInstance('A', env), startInstance('B', env)]) as [Instance, Instance]
  t.teardown(async () => {
    await Promise.all([a.stop(), b.stop()])
    const redis = new Redis(REDIS_URL)
    const keys = await redis.keys('login-throttle:*scale-out*')
    if (keys.length) await redis.del(...keys)
    redis.disconnect()
    await admin.query(`drop schema if exists "${schema}" cascade`)
    await admin.end()
    await rm(storage, { recursive: true, force: true })
  })

  t.equal(Number((await admin.query(`select count(*) as n from "${schema}".users`)).rows[0].n), 27, 'demo users seeded once by two booting instances')

  t.test('a sign-in on A is a session on B', async (t) => {
    const user = new Client(a.url)
    await user.login('staff@example.com')
    const me = await user.request('GET', '/api/auth/me', undefined, {}, b.url)
    t.equal(me.status, 200)
    t.equal((await me.json()).user.email, 'staff@example.com')
  })

  t.test('a delete on A is seen on B at once, and the deleted user is refused on B', async (t) => {
    const boss = new Client(a.url)
    await boss.login('admin@example.com')
    const victim = new Client(b.url)
    await victim.login('olivia.hughes@example.com')
    t.equal((await victim.request('GET', '/api/auth/me')).status, 200)
    const id = (await (await victim.request('GET', '/api/auth/me')).json()).user.id
    t.equal((await boss.request('DELETE', `/api/users/${id}`)).status, 204)
    t.equal((await boss.request('GET', `/api/users/${id}`, undefined, {}, b.url)).status, 404, 'B no longer has the user')
    t.equal((await victim.request('GET', '/api/auth/me')).status, 401, 'the deleted user is refused on B')
  })

  t.test('sign-out on B revokes the session on A', async (t) => {
    const user = new Client(a.url)
    await user.login('manager@example.com')
    const copy = user.cookie
    t.equal((await user.request('POST', '/api/auth/logout', undefined, {}, b.url)).status, 204)
    const stale = new Client(a.url)
    stale.cookie = copy
    t.equal((await stale.request('GET', '/api/auth/me')).status, 401)
  })

  t.test('failed sign-ins are counted across instances (Redis)', async (t) => {
    const email = `nobody-scale-out-${randomBytes(3).toString('hex')}@example.com`
    for (let i = 0; i < 5; i++) {
      const client = new Client(i % 2 ? a.url : b.url)
      t.equal((await client.request('POST', '/api/auth/login', { email, password: 'wrong' })).status, 401)
    }
    const locked = await new Client(b.url).request('POST', '/api/auth/login', { email, password: 'wrong' })
    t.equal(locked.status, 429, 'the sixth try, split over A and B, is throttled')
  })

  t.test('a three-signer sequential session signed alternately on A and B; 20 concurrent finalize calls split across them give one signature', async (t) => {
    const boss = new Client(a.url)
    await boss.login('admin@example.com')
    const image = `data:image/png;base64,${makeStampPng().toString('base64')}`
    const signer = async (email: string) => {
      const client = new Client(a.url)
      await client.login(email)
      const created = await client.request('POST', '/api/signatures', { label: 'Mine', image, certificate: { mode: 'issue' } })
      t.equal(created.status, 201)
      return { client, signature: (await created.json()).data.uuid as string, tokens: { [a.url]: await client.csrf(a.url), [b.url]: await client.csrf(b.url) } }
    }
    // contract-admin binds the employer to the manager and the employee to the admin; staff, bound to
    // no slot of it, witnesses. (A session may no longer name anyone but a slot's bound signatory.)
    const [manager, employee, witness] = await Promise.all([signer('manager@example.com'), signer('admin@example.com'), signer('staff@example.com')])
    // The top bar's Inbox count on B, which keeps it between pages, for a change made on A.
    const inboxBadgeOnB = async (who: typeof manager) => {
      const html = await (await who.client.request('GET', '/dashboard', undefined, {}, b.url)).text()
      return Number(/<span class="sr-only">(\d+) waiting for your signature<\/span>/.exec(html)?.[1] ?? 0)
    }
    const eventuallyOnB = async (who: typeof manager, expected: number, what: string) => {
      let seen = -1
      await eventually(async () => (seen = await inboxBadgeOnB(who)) === expected)
      t.equal(seen, expected, what)
    }
    // Each instance starts listening for the other's changes with its first top bar; until then it keeps no count.
    await manager.client.request('GET', '/dashboard', undefined, {}, a.url)
    await inboxBadgeOnB(manager)
    let listening = 0
    await eventually(async () => (listening = Number((await admin.query(`select count(*) as n from pg_stat_activity where application_name = $1`, [`app-writes ${schema}`])).rows[0].n)) >= 2)
    t.equal(listening, 2, 'both instances listen for the other\'s changes')
    t.equal(await inboxBadgeOnB(manager), 0, 'B counts nothing waiting for the manager yet, and keeps that count')
    const created = await boss.request('POST', '/api/signing-sessions', {
      template: 'contract', signable: 'contract-admin', mode: 'sequential',
      signers: [{ slot: 'employer', user: 'u-manager' }, { slot: 'employee', user: 'u-admin' }, { slot: 'witness', user: 'u-staff' }],
    })
    t.equal(created.status, 201, await created.clone().text())
    const session = (await created.json()).data
    const requestOf = (slot: string) => session.requests.find((r: { slot: string }) => r.slot === slot).id as string
    const finalize = (who: typeof employee, slot: string, base: string) => who.client.request(
      'POST', '/app/signature-templates/contract/signer/finalize',
      { signature: who.signature, request: requestOf(slot), placements: [] }, { 'x-csrf-token': who.tokens[base]! }, base,
    )
    await eventuallyOnB(manager, 1, 'the session created on A reaches the manager\'s Inbox count on B')
    t.equal((await finalize(employee, 'employee', b.url)).status, 409, 'the employee before the employer: out of order, nothing written')
    const statuses = await Promise.all(Array.from({ length: 20 }, (_, i) => finalize(manager, 'employer', i % 2 ? a.url : b.url).then((r) => r.status)))
    t.equal(statuses.filter((s) => s === 200).length, 1, `one success among ${statuses.join(',')}`)
    t.ok(statuses.every((s) => s === 200 || s === 409), 'the others are told it is already signed')
    await eventuallyOnB(manager, 0, 'signed, the manager\'s count on B drops')
    await eventuallyOnB(employee, 1, 'and it is the employee\'s turn on B')
    t.equal((await finalize(employee, 'employee', b.url)).status, 200, 'the second signer on B')
    t.equal((await finalize(witness, 'witness', a.url)).status, 200, 'the third signer on A')
    const rows = await admin.query(`select count(*) as n from "${schema}".digital_signatures where signable_id = 'contract-admin' and status = 'signed'`)
    t.equal(Number(rows.rows[0].n), 3, 'exactly one signature row per request')
    const document = await boss.request('GET', `/api/signing-sessions/${session.id}/document`, undefined, {}, b.url)
    const bytes = Buffer.from(await document.arrayBuffer())
    const { signatures } = await pdfsig(bytes)
    // Then the sealing (B-LTA): a document timestamp over the whole file, which pdfsig 22.12 lists but cannot check.
    t.equal(signatures.length, 5, 'certification + three signers + the document timestamp')
    t.ok(signatures.filter((s) => s.fieldName !== 'Document timestamp').every((s) => s.validation === 'Signature is Valid.'), signatures.map((s) => s.validation).join(' | '))
    t.same(signatures.filter((s) => s.totalDocumentSigned).map((s) => s.fieldName), ['Document timestamp'], 'the document timestamp covers the whole file')
    t.equal((await mupdfChangeHistory(bytes)).verdict, 0, 'no change forbidden by the certification')
    t.ok((await qpdfCheck(bytes)).clean)
  })

  t.test('killing A mid-run loses nothing B (or A) acknowledged', async (t) => {
    const boss = new Client(b.url)
    await boss.login('admin@example.com')
    const onA = new Client(a.url)
    onA.cookie = boss.cookie
    const acknowledged: string[] = []
    const tally = { a: 0, b: 0, cutOff: 0 }
    const create = async (client: Client, i: number) => {
      try {
        const res = await client.request('POST', '/api/users', { name: `Load ${i}`, email: `load${i}@example.com`, role: 'staff', password: 'long-enough' })
        if (res.status === 201) {
          acknowledged.push((await res.json()).data.id)
          tally[client === onA ? 'a' : 'b']++
        }
      } catch {
        tally.cutOff++ // A is gone: that request was never acknowledged
      }
    }
    const writes: Promise<void>[] = []
    for (let i = 0; i < 60; i++) {
      writes.push(create(i % 2 ? onA : boss, i))
      if (i === 30) a.kill()
      // Let A's early writes complete before the kill, so both sides of it are exercised.
      await new Promise((r) => setTimeout(r, i < 30 ? 40 : 5))
    }
    await Promise.all(writes)
    t.equal(tally.b, 30, 'every write sent to B was acknowledged')
    t.ok(tally.a > 0, `${tally.a} writes acknowledged by A before it died`)
    t.ok(tally.cutOff > 0, `${tally.cutOff} writes to A cut off by the kill`)
    for (const id of acknowledged) {
      const res = await boss.request('GET', `/api/users/${id}`)
      if (res.status !== 200) t.fail(`acknowledged user ${id} is missing`)
    }
    t.pass(`all ${acknowledged.length} acknowledged users are there, read through B`)
    a = await startInstance('A2', env)
    const again = new Client(a.url)
    again.cookie = boss.cookie
    t.equal((await again.request('GET', '/api/auth/me')).status, 200, 'a restarted A accepts the same session')
  })
})
