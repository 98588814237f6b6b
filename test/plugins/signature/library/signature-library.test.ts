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
import { makeStampJpeg, makeStampPng } from '../../../fixtures/pdf/stamp-image.ts'
import { oddP12, testCertificateAuthority, testUserCertificate } from '../../../fixtures/pdf/test-certificates.ts'

const png = `data:image/png;base64,${makeStampPng().toString('base64')}`
const ada = { id: 'u-ada', name: 'Ada Lovelace', email: 'ada@example.com' }
const bob = { id: 'u-bob', name: 'Bob Byte', email: 'bob@example.com' }

async function setup(database: { db: any }) {
  // 009: issuing a certificate records it in the CA's register, in the same transaction.
  await migrateToLatest(database.db, { 'signature-002-digital-signatures': createDigitalSignatures, 'signature-009-issued-certificates': createIssuedCertificates })
  const repository = new SignatureRepository(database.db)
  const key = randomBytes(32)
  const library = new SignatureLibrary(repository, new SecretBox(key), inProcessCertificateOperations(serializeCertificateAuthority(testCertificateAuthority())))
  const count = async () => Number((await database.db.selectFrom('digital_signatures').select((eb: any) => eb.fn.countAll().as('n')).executeTakeFirst()).n)
  return { library, repository, key, count }
}

forEachEngine(t, 'a signature with an issued certificate: sealed password, first one primary', async (database, _engine, t) => {
  const { library, repository, key } = await setup(database)
  const created = await library.create(ada, { label: 'Ada', image: png, certificate: { mode: 'issue' } })
  t.match(created, { label: 'Ada', status: 'active', primary: true, image: { mime: 'image/png' }, certificate: { source: 'issued', subject: /Ada Lovelace/ } })
  t.ok(new Date(created.certificate.notAfter!).getTime() > Date.now() + 365 * 86400_000, 'valid for more than a year')
  const second = await library.create(ada, { label: 'Initials', image: png, certificate: { mode: 'issue' } })
  t.equal(second.primary, false, 'only the first is primary by default')

  const row = (await repository.find(created.uuid))!
  const material = await library.signingMaterial(ada.id, created.uuid)
  t.not(row.certificate_password, material.password, 'the password is not stored in clear')
  t.ok(material.password.length >= 16)
  t.notOk(row.certificate_password!.includes(material.password))
  t.throws(() => new SecretBox(key).open(row.certificate_password!, second.uuid), 'sealed to its row: another uuid cannot open it')
  t.same(material.image, makeStampPng())
  t.same((await library.list(ada.id)).map((s) => s.label), ['Ada', 'Initials'])
  t.same(await library.list(bob.id), [])
})

forEachEngine(t, 'an uploaded PKCS#12: accepted with its password, refused with a clear 422 otherwise', async (database, _engine, t) => {
  const { library, count } = await setup(database)
  const own = testUserCertificate('Ada Upload')
  const ok = await library.create(ada, { label: 'Mine', image: png, certificate: { mode: 'upload', p12: Buffer.from(own.p12).toString('base64'), password: own.password } })
  t.match(ok.certificate, { source: 'uploaded', subject: /Ada Upload/ })
  t.equal((await library.signingMaterial(ada.id, ok.uuid)).password, own.password)

  const before = await count()
  await t.rejects(library.create(ada, { label: 'x', image: png, certificate: { mode: 'upload', p12: Buffer.from(own.p12).toString('base64'), password: 'wrong' } }), { code: 'ERR_P12_PASSWORD', statusCode: 422 })
  const noUsage = oddP12('pw', { keyUsage: { keyEncipherment: true } } as never)
  await t.rejects(library.create(ada, { label: 'x', image: png, certificate: { mode: 'upload', p12: noUsage.toString('base64'), password: 'pw' } }), { code: 'ERR_CERT_NO_SIGNING_USAGE', statusCode: 422 })
  await t.rejects(library.create(ada, { label: 'x', image: png, certificate: { mode: 'upload', p12: Buffer.from('not a p12').toString('base64'), password: 'pw' } }), { code: 'ERR_P12_INVALID', statusCode: 422 })
  t.equal(await count(), before, 'nothing written by any refusal')
})

forEachEngine(t, 'images must really be PNG or JPEG of a sane size', async (database, _engine, t) => {
  const { library, count } = await setup(database)
  const jpeg = await library.create(ada, { label: 'Photo', image: `data:image/jpeg;base64,${(await makeStampJpeg()).toString('base64')}`, certificate: { mode: 'issue' } })
  t.equal(jpeg.image.mime, 'image/jpeg')
  const bogus = [
    'data:image/png;base64,' + Buffer.from('hello, not an image').toString('base64'),
    'data:image/jpeg;base64,' + makeStampPng().toString('base64'),
    'data:image/png;base64,' + makeStampPng().subarray(0, 60).toString('base64'),
    'data:image/gif;base64,R0lGODlhAQABAAAAACw=',
    'https://example.com/sig.png',
    'data:image/png;base64,' + Buffer.concat([makeStampPng(), randomBytes(600 * 1024)]).toString('base64'),
  ]
  const before = await count()
  for (const image of bogus) {
    await t.rejects(library.create(ada, { label: 'x', image, certificate: { mode: 'issue' } }), { statusCode: /^4/ }, image.slice(0, 40))
  }
  t.equal(await count(), before)
  await t.rejects(library.create(ada, { label: 'x', image: png, certificate: { mode: 'issue' }, extra: 1 }), { code: 'ERR_VALIDATION', message: /extra/ })
  await t.rejects(library.create(ada, { label: 'x', image: png, certificate: { mode: 'steal' } }), { code: 'ERR_VALIDATION' })
})

forEachEngine(t, "another user's signature is a 404 everywhere; revoked signatures cannot sign", async (database, _engine, t) => {
  const { library } = await setup(database)
  const sig = await library.create(ada, { label: 'Ada', image: png, certificate: { mode: 'issue' } })
  for (const call of [
    () => library.get(bob.id, sig.uuid),
    () => library.update(bob.id, sig.uuid, { label: 'stolen' }),
    () => library.revoke(bob.id, sig.uuid),
    () => library.image(bob.id, sig.uuid),
    () => library.signingMaterial(bob.id, sig.uuid),
    () => library.get(ada.id, '../../etc/passwd'),
    () => library.get(ada.id, 'not-a-uuid'),
  ]) await t.rejects(call(), { code: 'ERR_NOT_FOUND', statusCode: 404 })
  t.equal((await library.get(ada.id, sig.uuid)).label, 'Ada', 'untouched')

  t.match(await library.update(ada.id, sig.uuid, { label: 'Ada L.', primary: false }), { label: 'Ada L.', primary: false })
  await t.rejects(library.update(ada.id, sig.uuid, {}), { code: 'ERR_VALIDATION' })
  await library.revoke(ada.id, sig.uuid)
  t.match(await library.get(ada.id, sig.uuid), { status: 'revoked', primary: false })
  await t.rejects(library.signingMaterial(ada.id, sig.uuid), { code: 'ERR_NOT_FOUND', message: /no longer active/ })
})
