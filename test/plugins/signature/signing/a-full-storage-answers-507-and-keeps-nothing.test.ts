// Issue 36, item 10, through HTTP: with the signature disk on a real file system that is full (a
// tmpfs mounted over it, then filled), signing an upload and creating a signing session answer
// 507 ERR_STORAGE_FULL (it was 500 ERR_INTERNAL), and nothing of them is kept: no row, no file,
// no temporary file, no empty folder (it left 18 of those).
import { mkdtemp, readdir, rm, statfs, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import t from 'tap'
import { buildTestApp, DEMO, login } from '../../../helpers/app.ts'
import { mountTmpfs, tmpfsRefused } from '../../../helpers/tmpfs.ts'
import { makePdf } from '../../../fixtures/pdf/make-pdf.ts'
import { signerWithSignature } from './helpers.ts'

const refused = await tmpfsRefused()

/** Every entry under `root`, folders with a trailing '/'. */
async function tree(root: string): Promise<string[]> {
  const entries = await readdir(root, { recursive: true, withFileTypes: true })
  return entries.map((e) => path.relative(root, path.join(e.parentPath, e.name)) + (e.isDirectory() ? '/' : '')).sort()
}

t.test('signing and creating a session on a full disk: 507 ERR_STORAGE_FULL, no row, no file, no folder', { skip: refused }, async (t) => {
  const storage = await mkdtemp(path.join(tmpdir(), 'full-storage-'))
  const diskRoot = path.join(storage, 'disks', 'signature')
  const mounted = await mountTmpfs(diskRoot, 4096)
  // Registered first, so it runs after the app (registered below) is closed.
  t.teardown(async () => {
    await mounted.unmount()
    await rm(storage, { recursive: true, force: true })
  })
  const app = await buildTestApp(t, { env: { STORAGE_PATH: storage } })
  const staff = await signerWithSignature(app, DEMO.staff.email)
  const admin = await login(app, DEMO.admin.email)
  const { signatures } = app.signature
  const pdf = Buffer.from(await makePdf()).toString('base64')
  const box = { page: 1, x: 300, y: 200, width: 200, height: 80 }

  // Proof the setup signs at all, then fill the file system to the last block.
  const first = await app.inject({ method: 'POST', url: '/api/sign', headers: { cookie: staff.cookie }, payload: { signature: staff.signature, pdf, placements: [box] } })
  t.equal(first.statusCode, 200, 'signs while there is room')
  const { bavail, bsize } = await statfs(diskRoot)
  await writeFile(path.join(diskRoot, 'filler'), Buffer.alloc(Number(bavail) * Number(bsize)))
  const filesBefore = await tree(diskRoot)
  const signedBefore = await signatures.db.selectFrom('digital_signatures').select('uuid').where('status', '=', 'signed').execute()

  const sign = await app.inject({ method: 'POST', url: '/api/sign', headers: { cookie: staff.cookie }, payload: { signature: staff.signature, pdf, placements: [box] } })
  t.equal(sign.statusCode, 507, `/api/sign: 507 Insufficient Storage: ${sign.body.slice(0, 200)}`)
  t.match(sign.json(), { statusCode: 507, code: 'ERR_STORAGE_FULL', error: 'Insufficient Storage' })

  const session = await app.inject({ method: 'POST', url: '/api/signing-sessions', headers: { cookie: admin }, payload: { template: 'payslip', signable: 'payslip-staff-2026-03' } })
  t.equal(session.statusCode, 507, `a new session: 507: ${session.body.slice(0, 200)}`)
  t.equal(session.json().code, 'ERR_STORAGE_FULL')

  t.same(await tree(diskRoot), filesBefore, 'no file, no temporary file and no folder was added')
  t.same(await signatures.db.selectFrom('digital_signatures').select('uuid').where('status', '=', 'signed').execute(), signedBefore, 'no signature row')
  t.same(await signatures.db.selectFrom('signing_sessions').select('id').execute(), [], 'no session row')

  await rm(path.join(diskRoot, 'filler'))
  const again = await app.inject({ method: 'POST', url: '/api/sign', headers: { cookie: staff.cookie }, payload: { signature: staff.signature, pdf, placements: [box] } })
  t.equal(again.statusCode, 200, 'signs again once space is freed')
})
