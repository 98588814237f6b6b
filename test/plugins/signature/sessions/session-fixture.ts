// A signing-session manager over real parts: a migrated database (SQLite or PostgreSQL), a disk in
// a temporary folder, the real signature library with certificates issued by a real CA, the real
// PDF worker pool, and a template whose PDF is made with pdf-lib.
import { randomBytes } from 'node:crypto'
import { mkdtemp, readdir, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { compilePolicy } from '../../../../core/access/policy.ts'
import type { PublicUser } from '../../../../core/auth/user-repository.ts'
import type { Database } from '../../../../core/db/database.ts'
import { migrateToLatest } from '../../../../core/db/migrate.ts'
import { DatabaseDisk } from '../../../../core/storage/database-disk.ts'
import { LocalDisk, type Disk, type StorageDriver } from '../../../../core/storage/disk.ts'
import { access } from '../../../../config/auth.ts'
import { readP12, serializeCertificateAuthority } from '../../../../plugins/signature/certificates/index.ts'
import type { RegisteredTemplate } from '../../../../plugins/signature/contracts/pdf-template.ts'
import type { Signable } from '../../../../plugins/signature/contracts/signable.ts'
import { SlotDefinition } from '../../../../plugins/signature/contracts/slot-definition.ts'
import { signatureMigrations } from '../../../../plugins/signature/database/migrations/index.ts'
import { TemplateSlotRepository } from '../../../../plugins/signature/database/template-slot-repository.ts'
import { inProcessCertificateOperations } from '../../../../plugins/signature/library/certificate-operations.ts'
import { SecretBox } from '../../../../plugins/signature/library/secret-box.ts'
import { SignatureLibrary } from '../../../../plugins/signature/library/signature-library.ts'
import { SignatureRepository } from '../../../../plugins/signature/library/signature-repository.ts'
import { createPdfWorkerPool } from '../../../../plugins/signature/pdf/pdf-worker-pool.ts'
import type { SessionEventSink } from '../../../../plugins/signature/sessions/session-notifications.ts'
import { SessionRepository } from '../../../../plugins/signature/sessions/session-repository.ts'
import { SigningSessionManager, type SessionManagerDependencies } from '../../../../plugins/signature/sessions/signing-session-manager.ts'
import { makePdf } from '../../../fixtures/pdf/make-pdf.ts'
import { makeStampPng } from '../../../fixtures/pdf/stamp-image.ts'
import { testCertificateAuthority, testUserCertificate } from '../../../fixtures/pdf/test-certificates.ts'

interface TapLike { teardown(fn: () => unknown): void }

export const PEOPLE = {
  alice: { id: 'u-alice', name: 'Alice Martin', email: 'alice@example.org', role: 'staff' },
  bruno: { id: 'u-bruno', name: 'Bruno Diaz', email: 'bruno@example.org', role: 'staff' },
  chen: { id: 'u-chen', name: 'Chen Wei', email: 'chen@example.org', role: 'staff' },
  mona: { id: 'u-mona', name: 'Mona Manager', email: 'mona@example.org', role: 'manager' },
  ada: { id: 'u-ada', name: 'Ada Admin', email: 'ada@example.org', role: 'admin' },
} satisfies Record<string, PublicUser>

/** The agreement: three slots on page 1, bound to the record's partyA/partyB/witness, in order 1, 2, 3. */
export const SLOTS = [
  new SlotDefinition({ key: 'party-a', label: 'Party A', defaultPage: 1, defaultX: 40, defaultY: 60, defaultWidth: 210, defaultHeight: 90, required: true, signatory: 'partyA', order: 1 }),
  new SlotDefinition({ key: 'party-b', label: 'Party B', defaultPage: 1, defaultX: 290, defaultY: 60, defaultWidth: 210, defaultHeight: 90, required: true, signatory: 'partyB', order: 2 }),
  new SlotDefinition({ key: 'witness', label: 'Witness', defaultPage: 1, defaultX: 540, defaultY: 60, defaultWidth: 210, defaultHeight: 90, required: true, signatory: 'witness', order: 3 }),
]

class AgreementRecord implements Signable {
  constructor(readonly id: string, readonly partyA: string, readonly partyB: string, readonly witness: string, readonly objectStreams = false) {}
  getSignableId() { return this.id }
  getSignableTitle() { return `Agreement ${this.id}` }
  async getSignablePdfPath(): Promise<string> { throw new Error('not used') }
}

/**
 * `storageDriver` 'database' (or STORAGE_DRIVER=database in the environment, on PostgreSQL) keeps
 * the session's documents in the database (core/storage/database-disk.ts); a SQLite run keeps them on a folder.
 */
export async function sessionFixture(t: TapLike, database: Database<any>, options: { hooks?: SessionManagerDependencies['hooks']; slots?: SlotDefinition[]; staleClaimMs?: number; now?: () => Date; events?: SessionEventSink; storageDriver?: StorageDriver } = {}) {
  await migrateToLatest(database.db, signatureMigrations)
  const dir = await mkdtemp(path.join(tmpdir(), 'sessions-'))
  t.teardown(() => rm(dir, { recursive: true, force: true }))
  const driver = options.storageDriver ?? (process.env.STORAGE_DRIVER === 'database' && database.engine === 'postgres' ? 'database' : 'disk')
  const disk: Disk = driver === 'database' ? new DatabaseDisk('test', database.db, path.join(dir, 'spool')) : new LocalDisk('test', dir)
  const templateDisk = new LocalDisk('templates', path.join(dir, 'templates'))
  const pdf = createPdfWorkerPool({ size: 2 })
  t.teardown(() => pdf.close())

  const records = new Map<string, AgreementRecord>([
    ['ag-1', new AgreementRecord('ag-1', PEOPLE.alice.id, PEOPLE.bruno.id, PEOPLE.chen.id)],
    ['ag-xref', new AgreementRecord('ag-xref', PEOPLE.alice.id, PEOPLE.bruno.id, PEOPLE.chen.id, true)],
  ])
  const template: RegisteredTemplate = {
    key: () => 'agreement',
    label: () => 'Agreement',
    slots: () => options.slots ?? SLOTS,
    // Templates render to a folder whatever the driver, as the app's registry does (a file for the renderer).
    renderSample: async () => templateDisk.put('samples/agreement.pdf', await makePdf()),
    renderFor: async (record) => {
      const r = record as AgreementRecord
      return templateDisk.put(`documents/agreement-${r.id}.pdf`, await makePdf({ objectStreams: r.objectStreams }))
    },
  }
  const ca = serializeCertificateAuthority(testCertificateAuthority())
  const signatures = new SignatureRepository(database.db)
  const library = new SignatureLibrary(signatures, new SecretBox(randomBytes(32)), inProcessCertificateOperations(ca))
  const image = `data:image/png;base64,${makeStampPng().toString('base64')}`
  const signatureOf: Record<string, string> = {}
  for (const person of [PEOPLE.alice, PEOPLE.bruno, PEOPLE.chen, PEOPLE.mona]) {
    signatureOf[person.id] = (await library.create(person, { label: `${person.name}'s signature`, image, certificate: { mode: 'issue' } })).uuid
  }
  const issued = testUserCertificate('Signing Application')
  const application = readP12(issued.p12, issued.password)
  const users = new Map(Object.values(PEOPLE).map((p) => [p.id, p]))
  const repository = new SessionRepository(database.db, options.events)
  const manager = new SigningSessionManager({
    repository,
    registry: { find: (key) => (key === 'agreement' ? template : null) },
    slots: new TemplateSlotRepository(database.db),
    source: { forTemplate: () => [...records.values()], find: (key, id) => (key === 'agreement' ? records.get(id) ?? null : null) },
    users: { findById: async (id) => users.get(id) ?? null },
    library,
    policy: compilePolicy(access),
    disk,
    pdf,
    applicationSigner: async () => application,
    ...(options.hooks ? { hooks: options.hooks } : {}),
    ...(options.staleClaimMs !== undefined ? { staleClaimMs: options.staleClaimMs } : {}),
    ...(options.now ? { now: options.now } : {}),
  })
  // The session's stored documents, by file name: what the folder holds, or the database.
  const sessionFiles = async (sessionId: string) => disk instanceof DatabaseDisk
    ? (await disk.list(`sessions/${sessionId}/`)).map((key) => key.slice(key.lastIndexOf('/') + 1)).sort()
    : (await readdir(path.join(dir, 'sessions', sessionId))).sort()
  const sign = (person: PublicUser, requestId: string) => manager.finalize(person, { templateKey: 'agreement', requestId, signatureUuid: signatureOf[person.id]! })
  const requestFor = (session: { requests: Array<{ id: string; slot: string }> }, slot: string) => session.requests.find((r) => r.slot === slot)!.id
  return { manager, repository, disk, driver, db: database.db, signatureOf, sessionFiles, sign, requestFor }
}
