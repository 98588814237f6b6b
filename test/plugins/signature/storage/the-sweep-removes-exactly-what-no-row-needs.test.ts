// Issue 36, item 4: the storage sweep removes what a crash leaves — files written for rows that
// never committed, temporary files — once older than the grace period, and nothing else: not a
// referenced file, not an earlier revision a renewal kept beside the current one, not a file still
// inside its grace period (another instance's write in flight), not files that are not documents.
import { randomUUID } from 'node:crypto'
import { mkdir, mkdtemp, readdir, rm, utimes, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import t from 'tap'
import { loggerOptions } from '../../../../core/http/access-log.ts'
import { buildTestApp, DEMO, login } from '../../../helpers/app.ts'
import { logLinesUntil } from '../../../helpers/log-file.ts'
import { makePdf } from '../../../fixtures/pdf/make-pdf.ts'
import { signerWithSignature } from '../signing/helpers.ts'

t.setTimeout(120_000)

const HOUR = 3_600_000

t.test('exactly the leftovers go: orphans and stale temporary files past the grace period', async (t) => {
  const logs = await mkdtemp(path.join(tmpdir(), 'sweep-log-'))
  t.teardown(() => rm(logs, { recursive: true, force: true }))
  const logFile = path.join(logs, 'app.log')
  const app = await buildTestApp(t, { logger: loggerOptions('info', logFile) })
  const { disk, signatures } = app.signature
  const staff = await signerWithSignature(app, DEMO.staff.email)
  const admin = await login(app, DEMO.admin.email)

  // Rows and their files, made the ordinary way: a one-pass signature renewed once (its first
  // copy stays beside the renewed one), and a session with its frozen document and certificate.
  const signed = await app.inject({ method: 'POST', url: '/api/sign', headers: { cookie: staff.cookie }, payload: { signature: staff.signature, pdf: Buffer.from(await makePdf()).toString('base64'), placements: [{ page: 1, x: 300, y: 200, width: 200, height: 80 }] } })
  t.equal(signed.statusCode, 200, 'signed in one pass')
  const uuid = signed.headers['x-signature-uuid'] as string
  const firstCopy = (await signatures.find(uuid))!.document_key!
  const renewed = await app.inject({ method: 'POST', url: `/api/signatures/${uuid}/renew-timestamp`, headers: { cookie: staff.cookie }, payload: {} })
  t.equal(renewed.statusCode, 200, 'renewed once')
  const current = (await signatures.find(uuid))!.document_key!
  const created = await app.inject({ method: 'POST', url: '/api/signing-sessions', headers: { cookie: admin }, payload: { template: 'payslip', signable: 'payslip-staff-2026-03' } })
  t.equal(created.statusCode, 201, 'a session')
  const session = created.json().data.id as string
  const frozen = `sessions/${session}/000-frozen.pdf`
  await disk.put(`sessions/${session}/certificate.pdf`, 'made from the rows on demand')

  // What crashes leave, and what looks like it but is not.
  const orphanSigned = `signed/ee/${randomUUID()}.pdf`
  // A second renewal that never committed: named after the current (once renewed) copy.
  const orphanRenewal = current.replace(/\.pdf$/, '-renewed-1-abcdef.pdf')
  const orphanSessionRevision = `sessions/${session}/001-employee-deadbeef.pdf`
  const orphanSession = randomUUID()
  const orphanSessionFrozen = `sessions/${orphanSession}/000-frozen.pdf`
  const youngOrphan = `signed/ff/${randomUUID()}.pdf`
  const staleTemporary = 'signed/ee/.x.pdf.0123456789ab.tmp'
  const freshTemporary = `sessions/${session}/.002-x.pdf.ba9876543210.tmp`
  const notADocument = 'documents/payslip/some-record.pdf'
  await disk.put(orphanSigned, await disk.get(current))
  await disk.put(orphanRenewal, Buffer.concat([await disk.get(current), Buffer.from('\n% an update never committed\n')]))
  await disk.put(orphanSessionRevision, Buffer.concat([await disk.get(frozen), Buffer.from('\n% a signature never committed\n')]))
  await disk.put(orphanSessionFrozen, await disk.get(frozen))
  await disk.put(youngOrphan, 'written a moment ago by another instance, its row not committed yet')
  await disk.put(notADocument, 'a rendered record')
  for (const key of [staleTemporary, freshTemporary]) {
    await mkdir(path.dirname(disk.path(key)), { recursive: true })
    await writeFile(disk.path(key), 'half a file')
  }

  // Everything is two hours old (past the default grace of an hour) but the young orphan and the fresh temporary file.
  const old = new Date(Date.now() - 2 * HOUR)
  const all = await files(disk.root)
  for (const key of all) if (key !== youngOrphan && key !== freshTemporary) await utimes(disk.path(key), old, old)

  const report = await app.signature.storageSweep.run()
  const kept = new Set(await files(disk.root))
  const gone = all.filter((key) => !kept.has(key))
  t.same(report.temporaryFiles, 1, 'one stale temporary file')
  t.same(report.unreferencedFiles, 4, 'four files no row needs')
  t.same(gone.sort(), [orphanSessionFrozen, orphanSessionRevision, orphanSigned, orphanRenewal, staleTemporary].sort(), 'exactly those are gone')
  for (const key of [current, firstCopy, frozen, `sessions/${session}/certificate.pdf`, youngOrphan, freshTemporary, notADocument]) {
    t.ok(kept.has(key), `kept: ${key}`)
  }
  t.notOk(await exists(path.dirname(disk.path(orphanSessionFrozen))), 'the orphan session\'s folder went with its file (emptied by this sweep, though young)')
  const served = await app.inject({ url: `/api/signatures/${uuid}/document`, headers: { cookie: staff.cookie } })
  t.equal(served.statusCode, 200, 'the signed document is still served')

  const lines = await logLinesUntil(logFile, (all) => all.some((l) => (l as { event?: string }).event === 'storage-sweep'))
  const line = lines.find((l) => (l as { event?: string }).event === 'storage-sweep') as unknown as Record<string, unknown> | undefined
  t.match(line, { level: 30, msg: 'storage sweep removed leftovers', disk: 'signature', temporaryFiles: 1, unreferencedFiles: 4, emptyFolders: Number }, 'one JSON line with the counts')
  for (const name of [orphanSigned, orphanSessionFrozen, orphanSession]) t.notOk(JSON.stringify(line).includes(name), 'and no names of what went')

  t.same(await app.signature.storageSweep.run(), { temporaryFiles: 0, unreferencedFiles: 0, emptyFolders: 0, bytes: 0 }, 'a second sweep finds nothing')
})

/** Disk-relative keys of every file under `root`. */
async function files(root: string): Promise<string[]> {
  const entries = await readdir(root, { recursive: true, withFileTypes: true })
  return entries.filter((e) => e.isFile()).map((e) => path.relative(root, path.join(e.parentPath, e.name)).split(path.sep).join('/'))
}

async function exists(folder: string): Promise<boolean> {
  return readdir(folder).then(() => true, () => false)
}
