// Issue 36 item 13: the backup docs/operating.md describes (dump the database first, then copy
// the storage, keep SESSION_KEY and SIGNATURE_ENCRYPTION_KEY), done to a live instance with
// documents signed on it, restored into a fresh database and a fresh folder on another instance:
// every document still verifies, the restored library signature still signs (its sealed key opens
// with the same SIGNATURE_ENCRYPTION_KEY), and a signing session goes on where it was.
import { execFile } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { cp, mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { promisify } from 'node:util'
import pg from 'pg'
import t from 'tap'
import { pdfsig } from '../fixtures/pdf/checkers.ts'
import { makePdf } from '../fixtures/pdf/make-pdf.ts'
import { makeStampPng } from '../fixtures/pdf/stamp-image.ts'
import { Client, startInstance, type Instance } from '../helpers/instances.ts'

const run = promisify(execFile)
const DATABASE_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test'

async function unavailable(): Promise<string | false> {
  for (const tool of ['pg_dump', 'psql']) {
    try { await run(tool, ['--version']) } catch { return `${tool} is not installed (Debian: postgresql-client)` }
  }
  const client = new pg.Client({ connectionString: DATABASE_URL, connectionTimeoutMillis: 2000 })
  try { await client.connect(); return false } catch (error) { return `PostgreSQL not reachable: ${(error as Error).message}` } finally { await client.end().catch(() => {}) }
}

const databaseUrl = (name: string) => { const url = new URL(DATABASE_URL); url.pathname = `/${name}`; return url.toString() }

t.setTimeout(600_000)

t.test('dump, copy, restore elsewhere: documents verify, signing goes on', { skip: await unavailable() }, async (t) => {
  const suffix = randomBytes(5).toString('hex')
  const schema = `backup_${suffix}`
  const restoredDb = `restored_${suffix}`
  const storage = await mkdtemp(path.join(tmpdir(), 'backup-live-'))
  const restoredStorage = await mkdtemp(path.join(tmpdir(), 'backup-restored-'))
  const admin = new pg.Client({ connectionString: DATABASE_URL })
  await admin.connect()
  await admin.query(`create schema "${schema}"`)
  const keys = { SESSION_KEY: randomBytes(32).toString('hex'), SIGNATURE_ENCRYPTION_KEY: randomBytes(32).toString('hex') }
  const instances: Instance[] = []
  t.teardown(async () => {
    await Promise.all(instances.map((i) => i.stop()))
    await admin.query(`drop schema if exists "${schema}" cascade`)
    await admin.query(`drop database if exists "${restoredDb}"`)
    await admin.end()
    await rm(storage, { recursive: true, force: true })
    await rm(restoredStorage, { recursive: true, force: true })
  })

  const live = await startInstance('live', { DATABASE_URL, DATABASE_SCHEMA: schema, USERS_STORE: 'database', STORAGE_PATH: storage, REDIS_URL: '', ...keys })
  instances.push(live)
  const image = `data:image/png;base64,${makeStampPng().toString('base64')}`
  const signer = async (base: string, email: string, signature?: string) => {
    const client = new Client(base)
    await client.login(email)
    if (!signature) {
      const created = await client.request('POST', '/api/signatures', { label: 'Mine', image, certificate: { mode: 'issue' } })
      t.equal(created.status, 201)
      signature = (await created.json()).data.uuid as string
    }
    return { client, signature: signature!, csrf: await client.csrf() }
  }
  const boss = new Client(live.url)
  await boss.login('admin@example.com')
  const [manager, employee] = await Promise.all([signer(live.url, 'manager@example.com'), signer(live.url, 'admin@example.com')])
  const created = await boss.request('POST', '/api/signing-sessions', {
    template: 'contract', signable: 'contract-admin', mode: 'sequential',
    signers: [{ slot: 'employer', user: 'u-manager' }, { slot: 'employee', user: 'u-admin' }, { slot: 'witness', user: 'u-staff' }],
  })
  t.equal(created.status, 201, await created.clone().text())
  const session = (await created.json()).data
  const requestOf = (slot: string) => session.requests.find((r: { slot: string }) => r.slot === slot).id as string
  const finalize = (who: { client: Client; signature: string; csrf: string }, slot: string) => who.client.request(
    'POST', '/app/signature-templates/contract/signer/finalize', { signature: who.signature, request: requestOf(slot), placements: [] }, { 'x-csrf-token': who.csrf })
  t.equal((await finalize(manager, 'employer')).status, 200, 'the employer signs before the backup')
  t.equal((await finalize(employee, 'employee')).status, 200, 'the employee too')
  const before = Buffer.from(await (await boss.request('GET', `/api/signing-sessions/${session.id}/document`)).arrayBuffer())

  // The backup, while the instance runs: the database first, then the files.
  const dump = (await run('pg_dump', ['--no-owner', '--schema', schema, DATABASE_URL], { maxBuffer: 256 * 1024 * 1024 })).stdout
  await cp(storage, restoredStorage, { recursive: true })
  await live.stop()

  // The restore: a fresh database, the dump, the copied folder, the same two keys.
  // A dump of one schema does not carry the extensions it uses (pg_trgm for the People search):
  // create them first, as docs/operating.md says.
  await admin.query(`create database "${restoredDb}"`)
  await run('psql', ['--quiet', '--set', 'ON_ERROR_STOP=1', '--command', 'create extension if not exists pg_trgm schema public', databaseUrl(restoredDb)])
  const psql = execFile('psql', ['--quiet', '--set', 'ON_ERROR_STOP=1', databaseUrl(restoredDb)])
  let errors = ''
  psql.stderr!.on('data', (chunk) => { errors += chunk })
  psql.stdin!.end(dump)
  const [code] = await new Promise<[number | null]>((resolve) => psql.once('exit', (c) => resolve([c])))
  t.equal(code, 0, `psql restores the dump ${errors}`)
  const restored = await startInstance('restored', { DATABASE_URL: databaseUrl(restoredDb), DATABASE_SCHEMA: schema, USERS_STORE: 'database', STORAGE_PATH: restoredStorage, REDIS_URL: '', ...keys })
  instances.push(restored)

  const again = new Client(restored.url)
  await again.login('admin@example.com')
  const after = Buffer.from(await (await again.request('GET', `/api/signing-sessions/${session.id}/document`)).arrayBuffer())
  t.same(after, before, 'the session\'s document comes back byte for byte')
  const report = await (await fetch(`${restored.url}/api/verify`, { method: 'POST', headers: { 'content-type': 'application/pdf' }, body: after })).json()
  t.equal(report.verdict, 'valid', `the restored instance verifies it: ${report.summary}`)
  // The witness's field is still empty (pdfsig lists it with no validation line).
  const checked = (await pdfsig(after)).signatures.filter((s) => s.validation !== '')
  t.ok(checked.length === 3 && checked.every((s) => s.validation === 'Signature is Valid.'), `and so does pdfsig: ${checked.map((s) => s.validation).join(' | ')}`)

  // Signing goes on: the witness signs with a new signature, the employee's restored one signs a record.
  const witness = await signer(restored.url, 'staff@example.com')
  const third = await witness.client.request('POST', '/app/signature-templates/contract/signer/finalize', { signature: witness.signature, request: requestOf('witness'), placements: [] }, { 'x-csrf-token': witness.csrf })
  t.equal(third.status, 200, `the session goes on where it was: ${third.status === 200 ? '' : await third.text()}`)
  const completed = await (await again.request('GET', `/api/signing-sessions/${session.id}`)).json()
  t.equal(completed.data.status, 'completed')
  const restoredEmployee = await signer(restored.url, 'admin@example.com', employee.signature)
  const pdf = Buffer.from(await makePdf()).toString('base64')
  const signed = await restoredEmployee.client.request('POST', '/api/sign', { pdf, signature: employee.signature, placements: [{ page: 1, x: 300, y: 200, width: 200, height: 80 }] }, { 'x-csrf-token': restoredEmployee.csrf })
  t.equal(signed.status, 200, `a signature made before the backup signs after the restore (its sealed key opens): ${signed.status === 200 ? '' : await signed.text()}`)
  t.equal((await pdfsig(Buffer.from(await signed.arrayBuffer()))).signatures[0]?.validation, 'Signature is Valid.')
})
