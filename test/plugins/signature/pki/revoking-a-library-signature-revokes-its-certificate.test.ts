// The CA's register (migration 009) on both engines: issuing records the certificate with the
// library signature, revoking the signature revokes it once (the first time stands), and only
// the owner can; an uploaded certificate is not the CA's to revoke.
import { randomBytes, X509Certificate } from 'node:crypto'
import { execFile } from 'node:child_process'
import { promisify } from 'node:util'
import t from 'tap'
import { migrateToLatest } from '../../../../core/db/migrate.ts'
import { loadCertificateAuthority, readP12, serializeCertificateAuthority } from '../../../../plugins/signature/certificates/index.ts'
import { inProcessCertificateOperations } from '../../../../plugins/signature/library/certificate-operations.ts'
import { SecretBox } from '../../../../plugins/signature/library/secret-box.ts'
import { SignatureLibrary } from '../../../../plugins/signature/library/signature-library.ts'
import { SignatureRepository } from '../../../../plugins/signature/library/signature-repository.ts'
import { issueTimestampAuthority } from '../../../../plugins/signature/pki/app-timestamp-authority.ts'
import { ApplicationPki } from '../../../../plugins/signature/pki/application-pki.ts'
import { pkiUrls } from '../../../../plugins/signature/pki/pki-urls.ts'
import { signatureMigrations } from '../../../../plugins/signature/index.ts'
import { forEachEngine } from '../../../core/db/engines.ts'
import { makeStampPng } from '../../../fixtures/pdf/stamp-image.ts'
import { testCertificateAuthority, testUserCertificate } from '../../../fixtures/pdf/test-certificates.ts'

const run = promisify(execFile)
const png = `data:image/png;base64,${makeStampPng().toString('base64')}`
const ada = { id: 'u-ada', name: 'Ada Lovelace', email: 'ada@example.com' }
const bob = { id: 'u-bob', name: 'Bob Byte', email: 'bob@example.com' }
const ca = serializeCertificateAuthority(testCertificateAuthority())

async function setup(database: { db: any }) {
  await migrateToLatest(database.db, signatureMigrations)
  let now = new Date('2026-11-24T10:00:00.000Z')
  const library = new SignatureLibrary(new SignatureRepository(database.db), new SecretBox(randomBytes(32)),
    inProcessCertificateOperations(ca, () => pkiUrls('https://sign.example.org/')), undefined, () => now)
  const pki = new ApplicationPki(database.db, ca, issueTimestampAuthority(loadCertificateAuthority(ca)))
  const register = () => database.db.selectFrom('issued_certificates').selectAll().orderBy('issued_at').execute()
  const crlText = async () => {
    const child = run('openssl', ['crl', '-inform', 'DER', '-noout', '-text'], { encoding: 'latin1' })
    child.child.stdin!.end(await pki.crl())
    return (await child).stdout
  }
  return { library, pki, register, crlText, at: (iso: string) => { now = new Date(iso) } }
}

forEachEngine(t, 'issue records the certificate; revoke revokes it once, for its owner only', async (database, _engine, t) => {
  const { library, register, crlText, at } = await setup(database)
  const sig = await library.create(ada, { label: 'Ada', image: png, certificate: { mode: 'issue' } })
  const material = await library.signingMaterial(ada.id, sig.uuid)
  const certificate = new X509Certificate(readP12(material.p12, material.password).certificates[0]!)
  t.match(certificate.infoAccess, /OCSP - URI:https:\/\/sign\.example\.org\/pki\/ocsp/, 'AIA under the given origin')
  t.match(certificate.infoAccess, /CA Issuers - URI:https:\/\/sign\.example\.org\/pki\/ca\.cer/)

  const rows = await register()
  t.equal(rows.length, 1)
  t.match(rows[0], { serial: certificate.serialNumber.toLowerCase().replace(/^(00)+/, ''), signature_uuid: sig.uuid, subject: /Ada Lovelace/, revoked_at: null })
  t.notMatch(await crlText(), /Serial Number/, 'nothing revoked yet')

  await t.rejects(library.revoke(bob.id, sig.uuid), { code: 'ERR_NOT_FOUND' })
  t.equal((await register())[0].revoked_at, null, "another user's revoke revokes nothing")

  at('2026-11-24T11:30:00.000Z')
  await library.revoke(ada.id, sig.uuid)
  t.equal((await register())[0].revoked_at, '2026-11-24T11:30:00.000Z')
  at('2026-11-25T09:00:00.000Z')
  await library.revoke(ada.id, sig.uuid)
  t.equal((await register())[0].revoked_at, '2026-11-24T11:30:00.000Z', 'revoking again does not move the time')
  const crl = await crlText()
  t.match(crl, new RegExp(`Serial Number: ${certificate.serialNumber}\\s+Revocation Date: Nov 24 11:30:00 2026 GMT`, 'i'))

  const own = testUserCertificate('Ada Upload')
  const uploaded = await library.create(ada, { label: 'Mine', image: png, certificate: { mode: 'upload', p12: Buffer.from(own.p12).toString('base64'), password: own.password } })
  await library.revoke(ada.id, uploaded.uuid)
  t.equal((await register()).length, 1, 'an uploaded certificate is not in the register')
})

forEachEngine(t, "the TSA's own certificate is in the register once, however often instances boot", async (database, _engine, t) => {
  const { pki, register } = await setup(database)
  await pki.recordOwnCertificates()
  await pki.recordOwnCertificates()
  const rows = await register()
  t.equal(rows.length, 1)
  t.match(rows[0], { signature_uuid: null, subject: /TSA/, revoked_at: null })
})

forEachEngine(t, 'a certificate issued before the register existed is entered, revoked, when its signature is revoked', async (database, _engine, t) => {
  const { library, register, at } = await setup(database)
  const sig = await library.create(ada, { label: 'Old', image: png, certificate: { mode: 'issue' } })
  const material = await library.signingMaterial(ada.id, sig.uuid)
  const serial = new X509Certificate(readP12(material.p12, material.password).certificates[0]!).serialNumber.toLowerCase()
  // As a row written before migration 009: the signature without its register entry.
  await database.db.deleteFrom('issued_certificates').execute()
  at('2026-11-24T12:00:00.000Z')
  await library.revoke(ada.id, sig.uuid)
  t.match(await register(), [{ serial, signature_uuid: sig.uuid, subject: /Ada Lovelace/, revoked_at: '2026-11-24T12:00:00.000Z' }])
})
