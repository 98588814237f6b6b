import { randomBytes } from 'node:crypto'
import t from 'tap'
import { migrateToLatest } from '../../../../core/db/migrate.ts'
import { inProcessCertificateOperations } from '../../../../plugins/signature/library/certificate-operations.ts'
import { createDigitalSignatures } from '../../../../plugins/signature/library/migrations/002-digital-signatures.ts'
import { createIssuedCertificates } from '../../../../plugins/signature/pki/migrations/009-issued-certificates.ts'
import { SecretBox } from '../../../../plugins/signature/library/secret-box.ts'
import { SignatureLibrary } from '../../../../plugins/signature/library/signature-library.ts'
import { SignatureRepository } from '../../../../plugins/signature/library/signature-repository.ts'
import { serializeCertificateAuthority } from '../../../../plugins/signature/certificates/index.ts'
import { forEachEngine } from '../../../core/db/engines.ts'
import { makeStampPng } from '../../../fixtures/pdf/stamp-image.ts'
import { testCertificateAuthority, testUserCertificate } from '../../../fixtures/pdf/test-certificates.ts'

const png = `data:image/png;base64,${makeStampPng().toString('base64')}`
const ada = { id: 'u-ada', name: 'Ada Lovelace', email: 'ada@example.com' }
const bob = { id: 'u-bob', name: 'Bob Byte', email: 'bob@example.com' }

forEachEngine(t, 'revoking the primary signature makes the oldest other active one primary', async (database, _engine, t) => {
  await migrateToLatest(database.db, { 'signature-002-digital-signatures': createDigitalSignatures, 'signature-009-issued-certificates': createIssuedCertificates })
  // A clock a second apart per call: "oldest" is decided by created_at, not by chance within one millisecond.
  let tick = Date.parse('2026-01-01T00:00:00Z')
  const now = () => new Date((tick += 1000))
  const library = new SignatureLibrary(new SignatureRepository(database.db), new SecretBox(randomBytes(32)), inProcessCertificateOperations(serializeCertificateAuthority(testCertificateAuthority())), undefined, now)
  // Uploaded certificates: no CA issuing needed, the test stays fast.
  const upload = (name: string) => { const c = testUserCertificate(name); return { mode: 'upload' as const, p12: Buffer.from(c.p12).toString('base64'), password: c.password } }
  const first = await library.create(ada, { label: 'First', image: png, certificate: upload('Ada One') })
  const second = await library.create(ada, { label: 'Second', image: png, certificate: upload('Ada Two') })
  const third = await library.create(ada, { label: 'Third', image: png, certificate: upload('Ada Three') })
  const bobs = await library.create(bob, { label: 'Bob', image: png, certificate: upload('Bob') })
  const primaryOf = async (userId: string) => (await library.list(userId)).filter((s) => s.primary).map((s) => s.label)

  await library.revoke(ada.id, second.uuid)
  t.same(await primaryOf(ada.id), ['First'], 'revoking another one leaves the primary alone')
  await library.revoke(ada.id, first.uuid)
  t.same(await primaryOf(ada.id), ['Third'], 'the oldest active one left is primary (Second is revoked)')
  t.same(await primaryOf(bob.id), ['Bob'], "another user's signatures are untouched")
  await library.revoke(ada.id, third.uuid)
  t.same(await primaryOf(ada.id), [], 'none left to promote')
  t.ok(bobs.primary)
})
