// Time per signature in a signing session, through the whole finalize path (claim row, read the
// current revision, incremental signature in the PDF worker, atomic write, commit rows), for the
// 1st and the 10th signer on a 1-page and a 100-page document.
// Run: node --import tsx bench/session.bench.ts   (never part of npm test)
// Baseline measured in the same run: the bare engine's signField on the same revision, in process.
import { median } from './lib/rows.ts'
import { randomBytes } from 'node:crypto'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { compilePolicy } from '../core/access/policy.ts'
import { openDatabase } from '../core/db/database.ts'
import { migrateToLatest } from '../core/db/migrate.ts'
import { LocalDisk } from '../core/storage/disk.ts'
import { access } from '../config/auth.ts'
import { createCertificateAuthority, readP12, serializeCertificateAuthority } from '../plugins/signature/certificates/index.ts'
import { SlotDefinition } from '../plugins/signature/contracts/slot-definition.ts'
import { signatureMigrations } from '../plugins/signature/database/migrations/index.ts'
import { TemplateSlotRepository } from '../plugins/signature/database/template-slot-repository.ts'
import { inProcessCertificateOperations } from '../plugins/signature/library/certificate-operations.ts'
import { SecretBox } from '../plugins/signature/library/secret-box.ts'
import { SignatureLibrary } from '../plugins/signature/library/signature-library.ts'
import { SignatureRepository } from '../plugins/signature/library/signature-repository.ts'
import { signField } from '../plugins/signature/pdf/index.ts'
import { createPdfWorkerPool } from '../plugins/signature/pdf-worker-pool.ts'
import { SessionRepository } from '../plugins/signature/sessions/session-repository.ts'
import { SigningSessionManager } from '../plugins/signature/sessions/signing-session-manager.ts'
import type { SignatureTables } from '../plugins/signature/database/schema.ts'
import { issueCertificate } from '../plugins/signature/certificates/certificate-tasks.ts'
import { makePdf } from '../test/fixtures/pdf/make-pdf.ts'
import { makeStampPng } from '../test/fixtures/pdf/stamp-image.ts'

const SIGNERS = 10
const ROUNDS = Number(process.env.ROUNDS ?? 5)
const dir = await mkdtemp(path.join(tmpdir(), 'session-bench-'))
const database = openDatabase<SignatureTables>({ sqliteFile: path.join(dir, 'bench.sqlite') })
await migrateToLatest(database.db, signatureMigrations)
const disk = new LocalDisk('bench', path.join(dir, 'disk'))
const pdf = createPdfWorkerPool({ size: 1 })
const ca = serializeCertificateAuthority(createCertificateAuthority({ commonName: 'Bench CA' }))
const library = new SignatureLibrary(new SignatureRepository(database.db), new SecretBox(randomBytes(32)), inProcessCertificateOperations(ca))
const image = makeStampPng()
const people = Array.from({ length: SIGNERS }, (_, i) => ({ id: `u-${i + 1}`, name: `Signer ${i + 1}`, email: `s${i + 1}@example.org`, role: 'staff' }))
const admin = { id: 'u-admin', name: 'Admin', email: 'admin@example.org', role: 'admin' }
const signatureOf = new Map<string, string>()
for (const person of people) {
  signatureOf.set(person.id, (await library.create(person, { label: 'mine', image: `data:image/png;base64,${image.toString('base64')}`, certificate: { mode: 'issue' } })).uuid)
}
const app = issueCertificate(ca, { name: 'Bench Application', email: 'app@example.org' })
const application = readP12(app.p12, app.password)
const slots = people.map((_, i) => new SlotDefinition({
  key: `s${String(i + 1).padStart(2, '0')}`, label: `Signer ${i + 1}`, defaultPage: 1, defaultX: 30 + (i % 5) * 150, defaultY: 40 + Math.floor(i / 5) * 90,
  defaultWidth: 140, defaultHeight: 80, required: true, signatory: `p${i}`, order: i + 1,
}))
const documents = new Map<string, Uint8Array>([['1-page', await makePdf()], ['100-pages', await makePdf({ pages: 100 })]])
const records = new Map([...documents.keys()].map((key) => [key, Object.assign(Object.fromEntries(people.map((p, i) => [`p${i}`, p.id])), {
  getSignableId: () => key, getSignableTitle: () => `Bench ${key}`, getSignablePdfPath: async () => '',
})]))
const manager = new SigningSessionManager({
  repository: new SessionRepository(database.db),
  registry: { find: () => ({ key: () => 'bench', label: () => 'Bench', slots: () => slots, renderSample: async () => '', renderFor: async (r: unknown) => disk.put(`documents/${(r as { getSignableId(): string }).getSignableId()}.pdf`, documents.get((r as { getSignableId(): string }).getSignableId())!) }) },
  slots: new TemplateSlotRepository(database.db),
  source: { forTemplate: () => [...records.values()], find: (_k, id) => records.get(id) ?? null },
  users: { findById: async (id) => [...people, admin].find((p) => p.id === id) ?? null },
  library, policy: compilePolicy(access), disk, pdf, applicationSigner: async () => application,
})

console.log(`session finalize, median of ${ROUNDS} sessions (SQLite, 1 PDF worker), ms`)
console.log('document    | signer | finalize | bare signField | finalize / bare | file KiB')
for (const key of documents.keys()) {
  const finalizeTimes: number[][] = [[], []]
  const bareTimes: number[][] = [[], []]
  let size = 0
  for (let round = 0; round < ROUNDS + 1; round++) {
    const session = await manager.create(admin, { template: 'bench', signable: key })
    for (const [i, person] of people.entries()) {
      const request = session.requests.find((r) => r.signer.id === person.id)!
      const before = await disk.get((await database.db.selectFrom('signing_sessions').select('current_document_key').where('id', '=', session.id).executeTakeFirstOrThrow()).current_document_key)
      const started = performance.now()
      const result = await manager.finalize(person, { templateKey: 'bench', requestId: request.id, signatureUuid: signatureOf.get(person.id)! })
      const took = performance.now() - started
      const material = await library.signingMaterial(person.id, signatureOf.get(person.id)!)
      const bareStart = performance.now()
      await signField(before, { fieldName: request.field, image: material.image, signer: { p12: material.p12, password: material.password } })
      const bare = performance.now() - bareStart
      if (round > 0 && (i === 0 || i === SIGNERS - 1)) {
        finalizeTimes[i === 0 ? 0 : 1]!.push(took)
        bareTimes[i === 0 ? 0 : 1]!.push(bare)
      }
      if (i === SIGNERS - 1) size = (await disk.get(result.signed_document_path.slice(disk.root.length + 1))).length
    }
  }
  for (const [slot, label] of [[0, '1st'], [1, '10th']] as const) {
    const f = median(finalizeTimes[slot]!)
    const b = median(bareTimes[slot]!)
    console.log(`${key.padEnd(11)} | ${label.padEnd(6)} | ${f.toFixed(1).padStart(8)} | ${b.toFixed(1).padStart(14)} | ${(f / b).toFixed(2).padStart(15)} | ${slot === 1 ? (size / 1024).toFixed(0) : ''}`)
  }
}
await pdf.close()
await database.close()
await rm(dir, { recursive: true, force: true })
