// Issue 36 item 15: two real instances on one PostgreSQL schema with STORAGE_DRIVER=database and
// DIFFERENT storage folders (nothing shared on disk, no Redis). Documents, page images and the
// signing keys (CA, TSA, the encryption key that seals certificate passwords) live in the
// database: what one instance signs the other serves and verifies, and a session started on one
// is signed on the other. Skipped, with the reason, where PostgreSQL is absent.
import { randomBytes } from 'node:crypto'
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import pg from 'pg'
import t from 'tap'
import { makePdf } from '../fixtures/pdf/make-pdf.ts'
import { pdfsig } from '../fixtures/pdf/checkers.ts'
import { makeStampPng } from '../fixtures/pdf/stamp-image.ts'
import { postgresUnreachable, TEST_DATABASE_URL } from '../core/db/engines.ts'
import { Client, startInstance, type Instance } from '../helpers/instances.ts'

t.setTimeout(400_000)

t.test('two instances with their own folders share documents and keys through PostgreSQL', { skip: (await postgresUnreachable()) ?? false }, async (t) => {
  const schema = `store_${randomBytes(5).toString('hex')}`
  const folders = [await mkdtemp(path.join(tmpdir(), 'db-storage-a-')), await mkdtemp(path.join(tmpdir(), 'db-storage-b-'))] as const
  const admin = new pg.Client({ connectionString: TEST_DATABASE_URL })
  await admin.connect()
  await admin.query(`create schema "${schema}"`)
  // No SIGNATURE_ENCRYPTION_KEY: the encryption key file travels through the database as well.
  const common = { DATABASE_URL: TEST_DATABASE_URL, DATABASE_SCHEMA: schema, USERS_STORE: 'database', STORAGE_DRIVER: 'database', REDIS_URL: '', SIGNATURE_ENCRYPTION_KEY: '', SESSION_KEY: randomBytes(32).toString('hex') }
  const instances: Instance[] = []
  t.teardown(async () => {
    await Promise.all(instances.map((i) => i.stop()))
    await admin.query(`drop schema if exists "${schema}" cascade`)
    await admin.end()
    await Promise.all(folders.map((f) => rm(f, { recursive: true, force: true })))
  })
  // Both boot at once: the key files must be made once, by one of them.
  const [a, b] = await Promise.all([startInstance('A', { ...common, STORAGE_PATH: folders[0] }), startInstance('B', { ...common, STORAGE_PATH: folders[1] })]) as [Instance, Instance]
  instances.push(a, b)

  const keyFiles = ['certificate-authority.json', 'timestamp-authority.json', 'signature-encryption.key']
  for (const name of keyFiles) {
    const [onA, onB] = await Promise.all(folders.map((f) => readFile(path.join(f, 'keys', name))))
    t.ok(onA!.equals(onB!), `${name}: the same on both instances`)
  }
  const shared = (await admin.query(`select key from "${schema}".stored_objects where disk = 'keys' order by key`)).rows.map((r) => r.key)
  t.same(shared, keyFiles.map((n) => `keys/${n}`).sort(), 'the key files are in the database')

  const staff = new Client(a.url)
  await staff.login('staff@example.com')
  const image = `data:image/png;base64,${makeStampPng().toString('base64')}`
  const created = await staff.request('POST', '/api/signatures', { label: 'Sam', image, certificate: { mode: 'issue' } })
  t.equal(created.status, 201)
  const signature = (await created.json()).data.uuid as string

  t.test('a document signed on A is downloaded, shown and verified on B', async (t) => {
    const csrf = await staff.csrf(a.url)
    const signed = await staff.request('POST', '/api/sign', { pdf: Buffer.from(await makePdf()).toString('base64'), signature, placements: [{ page: 1, x: 300, y: 200, width: 200, height: 80 }] }, { 'x-csrf-token': csrf }, a.url)
    t.equal(signed.status, 200, signed.status === 200 ? 'signed on A' : await signed.text())
    const uuid = signed.headers.get('x-signature-uuid')!
    const bytes = Buffer.from(await signed.arrayBuffer())
    const download = await staff.request('GET', `/api/signatures/${uuid}/document`, undefined, {}, b.url)
    t.equal(download.status, 200)
    t.same(Buffer.from(await download.arrayBuffer()), bytes, 'B serves the bytes A signed')
    const page = await staff.request('GET', `/api/signatures/${uuid}/pages/1`, undefined, {}, b.url)
    t.equal(page.status, 200, 'B renders its page (from a spool copy)')
    t.equal(page.headers.get('content-type'), 'image/png')
    const pageOnA = await staff.request('GET', `/api/signatures/${uuid}/pages/1`, undefined, {}, a.url)
    t.same(Buffer.from(await pageOnA.arrayBuffer()), Buffer.from(await page.arrayBuffer()), 'A shows the same page')
    const images = await admin.query(`select count(*) as n from "${schema}".stored_objects where disk = 'signature' and key like 'page-images/%'`)
    t.equal(Number(images.rows[0].n), 1, 'A found the image B rendered: one shared page image, not one per instance')
    const report = await (await fetch(`${b.url}/api/verify`, { method: 'POST', headers: { 'content-type': 'application/pdf' }, body: bytes })).json()
    t.equal(report.verdict, 'valid', `B verifies it against the shared CA: ${report.summary}`)
    t.equal((await pdfsig(bytes)).signatures[0]?.validation, 'Signature is Valid.')
    const stored = await admin.query(`select key, size from "${schema}".stored_objects where disk = 'signature' and key like 'signed/%'`)
    t.equal(stored.rows.length, 1, 'the signed document is a row')
    t.equal(Number(stored.rows[0].size), bytes.length)
    for (const folder of folders) await t.rejects(stat(path.join(folder, 'disks', 'signature', 'signed')), { code: 'ENOENT' }, 'and no file under either storage folder')
  })

  t.test('a session started on A is signed on B', async (t) => {
    const boss = new Client(a.url)
    await boss.login('admin@example.com')
    const response = await boss.request('POST', '/api/signing-sessions', { template: 'payslip', signable: 'payslip-staff-2026-03', mode: 'parallel' })
    t.equal(response.status, 201, response.status === 201 ? 'created on A' : await response.clone().text())
    const session = (await response.json()).data
    const request = session.requests.find((r: { slot: string }) => r.slot === 'employee').id as string
    const signer = new Client(b.url)
    signer.cookie = staff.cookie
    const view = await signer.request('GET', `/app/signature-templates/payslip/sign/${signature}?request=${request}`, undefined, { accept: 'text/html' })
    t.equal(view.status, 200, 'B shows the signer page of the frozen document A stored')
    const finalize = await signer.request('POST', '/app/signature-templates/payslip/signer/finalize', { signature, request, placements: [] }, { 'x-csrf-token': await signer.csrf() })
    t.equal(finalize.status, 200, finalize.status === 200 ? 'signed on B' : await finalize.text())
    const document = Buffer.from(await (await boss.request('GET', `/api/signing-sessions/${session.id}/document`)).arrayBuffer())
    const checked = (await pdfsig(document)).signatures.filter((s) => s.validation !== '')
    t.ok(checked.length >= 2 && checked.every((s) => s.validation === 'Signature is Valid.'), `A serves B's revision, every signature valid: ${checked.map((s) => s.validation).join(' | ')}`)
    const revisions = await admin.query(`select key from "${schema}".stored_objects where disk = 'signature' and key like $1 order by key`, [`sessions/${session.id}/%`])
    t.equal(revisions.rows[0].key, `sessions/${session.id}/000-frozen.pdf`)
    t.ok(revisions.rows.length >= 2, `the frozen document and B's revision are rows: ${revisions.rows.map((r) => r.key.split('/').pop()).join(', ')}`)
  })
})
