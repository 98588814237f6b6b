import { randomUUID } from 'node:crypto'
import type { Transaction } from 'kysely'
import { z } from 'zod'
import { ERR_NOT_FOUND } from '../../../core/http/errors.ts'
import { parseInput } from '../../../core/http/validate.ts'
import { UUID } from '../../../core/http/uuid.ts'
import type { OutboxWriter } from '../outbox/outbox-writer.ts'
import { issuedCertificates } from '../pki/issued-certificates.ts'
import { normalizeSerial } from '../pki/certificate-fields.ts'
import type { SignatureTables } from '../database/schema.ts'
import type { DigitalSignatureTable } from './library-tables.ts'
import type { SecretBox } from './secret-box.ts'
import { inProcessImageDecoder, parseSignatureImage, type ImageDecoder } from './signature-image.ts'
import type { SignatureRepository } from './signature-repository.ts'

export interface CertificateOperations {
  /** A new certificate from the application's CA, as PKCS#12 with a random password. */
  issue(subject: { name: string; email: string }): Promise<{ p12: Buffer; password: string; subject: string; notAfter: Date; serialNumber: string }>
  /** Opens an uploaded PKCS#12; throws the 422s of readP12 (wrong password, no signing usage, expired). */
  inspect(p12: Buffer, password: string): Promise<{ subject: string; notAfter: Date; serialNumber: string }>
}

export interface LibrarySignature {
  uuid: string
  label: string
  status: string
  primary: boolean
  createdAt: string
  image: { mime: string }
  certificate: { source: string | null; subject: string | null; notAfter: string | null }
}

/** What signing needs, read only for an active signature of the signed-in user. */
export interface SigningMaterial {
  uuid: string
  userId: string
  label: string
  image: Buffer
  p12: Buffer
  password: string
  subject: string | null
}

const label = z.string().trim().min(1, 'required').max(120)

const createSchema = z.strictObject({
  label,
  primary: z.boolean().optional(),
  image: z.string().max(800_000, 'the image is too large'),
  certificate: z.discriminatedUnion('mode', [
    z.strictObject({ mode: z.literal('issue') }),
    z.strictObject({
      mode: z.literal('upload'),
      p12: z.string().max(100_000, 'the PKCS#12 file is too large').regex(/^[A-Za-z0-9+/]+={0,2}$/, 'base64'),
      password: z.string().max(1024),
    }),
  ]),
})

const updateSchema = z.strictObject({ label, primary: z.boolean() }).partial()
  .refine((v) => Object.keys(v).length > 0, 'send label or primary')

export function toLibrarySignature(row: DigitalSignatureTable): LibrarySignature {
  return {
    uuid: row.uuid,
    label: row.label,
    status: row.status,
    primary: row.is_primary === 1,
    createdAt: row.created_at,
    image: { mime: row.image_mime ?? 'image/png' },
    certificate: { source: row.certificate_source, subject: row.certificate_subject, notAfter: row.certificate_not_after },
  }
}

/**
 * A user's stored signatures: an image plus a certificate, whose password is sealed in the row
 * so the signer never types it. Every method takes the owner's id: another user's uuid is a 404,
 * indistinguishable from a uuid that does not exist.
 */
export class SignatureLibrary {
  constructor(
    private readonly repository: SignatureRepository,
    private readonly secrets: SecretBox,
    /** Also issues the one-off certificates of signers without an account (sessions/sign-links.ts). */
    readonly certificates: CertificateOperations,
    // The server passes workerImageDecoder(pool); decoding in this thread suits tests and scripts.
    private readonly images: ImageDecoder = inProcessImageDecoder,
    private readonly now: () => Date = () => new Date(),
    // The outbox (signature.created / signature.revoked webhooks), written in the same transaction.
    private readonly events?: Pick<OutboxWriter, 'publish' | 'committed'>,
  ) {}

  /**
   * The row change, the CA register's (issued_certificates) and the webhook rows in one
   * transaction: a revocation is never in the CRL without the signature being revoked, nor back.
   */
  async #write(change: (db: Transaction<SignatureTables>) => Promise<unknown>, event: { type: 'signature.created' | 'signature.revoked'; row: DigitalSignatureTable; at: string }) {
    const { events } = this
    await this.repository.db.transaction().execute(async (tx) => {
      await change(tx)
      if (!events) return
      const { row } = event
      await events.publish(tx, event.type, {
        signature: { uuid: row.uuid, user_id: row.user_id, label: row.label, status: row.status, certificate: { source: row.certificate_source, subject: row.certificate_subject, not_after: row.certificate_not_after } },
        at: event.at,
      }, event.at)
    })
    events?.committed()
  }

  async list(userId: string): Promise<LibrarySignature[]> {
    return (await this.repository.listLibrary(userId)).map(toLibrarySignature)
  }

  async #own(userId: string, uuid: string) {
    const row = UUID.test(uuid) ? await this.repository.findLibrary(userId, uuid) : undefined
    if (!row) throw ERR_NOT_FOUND('Signature not found')
    return row
  }

  async get(userId: string, uuid: string) {
    return toLibrarySignature(await this.#own(userId, uuid))
  }

  async create(user: { id: string; name: string; email: string }, body: unknown): Promise<LibrarySignature> {
    const input = parseInput(createSchema, body, 'body')
    const image = await parseSignatureImage(input.image, this.images)
    const requested = input.certificate
    let certificate: { p12: Buffer; password: string; subject: string; notAfter: Date; serialNumber: string }
    if (requested.mode === 'issue') certificate = await this.certificates.issue({ name: user.name, email: user.email })
    else {
      const p12 = Buffer.from(requested.p12, 'base64')
      certificate = { p12, password: requested.password, ...(await this.certificates.inspect(p12, requested.password)) }
    }
    const uuid = randomUUID()
    const at = this.now().toISOString()
    const isFirst = (await this.repository.listLibrary(user.id)).length === 0
    const row: DigitalSignatureTable = {
      uuid,
      user_id: user.id,
      source_uuid: null,
      signable_type: null,
      signable_id: null,
      status: 'active',
      label: input.label,
      is_primary: (input.primary ?? isFirst) ? 1 : 0,
      image_mime: image.mime,
      image_base64: image.bytes.toString('base64'),
      certificate_source: requested.mode === 'issue' ? 'issued' : 'uploaded',
      certificate_p12: certificate.p12.toString('base64'),
      certificate_password: this.secrets.seal(certificate.password, uuid),
      certificate_subject: certificate.subject,
      certificate_not_after: certificate.notAfter.toISOString(),
      document_key: null,
      document_sha256: null,
      signed_at: null,
      created_at: at,
      updated_at: at,
    }
    const issued = requested.mode === 'issue'
      ? { serial: normalizeSerial(certificate.serialNumber), subject: certificate.subject, signature_uuid: uuid, not_after: row.certificate_not_after!, issued_at: at, revoked_at: null }
      : undefined
    await this.#write(async (db) => {
      await this.repository.insert(row, db)
      if (issued) await issuedCertificates.record(db, issued)
    }, { type: 'signature.created', row, at })
    return toLibrarySignature(row)
  }

  async update(userId: string, uuid: string, body: unknown): Promise<LibrarySignature> {
    const input = parseInput(updateSchema, body, 'body')
    await this.#own(userId, uuid)
    const patch: Partial<DigitalSignatureTable> = { updated_at: this.now().toISOString() }
    if (input.label !== undefined) patch.label = input.label
    if (input.primary !== undefined) patch.is_primary = input.primary ? 1 : 0
    await this.repository.update(uuid, patch)
    return this.get(userId, uuid)
  }

  /**
   * Revoking keeps the row (documents already signed with it still point at it) and revokes the
   * certificate the application's CA issued for it, if it did: CRL and OCSP say so from then on.
   * Revoking the primary signature makes the oldest other active one primary, in the same
   * transaction, so a user with active signatures always has a primary one.
   */
  async revoke(userId: string, uuid: string): Promise<void> {
    const row = await this.#own(userId, uuid)
    const at = this.now().toISOString()
    const patch = { status: 'revoked' as const, is_primary: 0, updated_at: at }
    const unrecorded = await this.#unrecordedIssuedCertificate(row)
    await this.#write(async (db) => {
      await this.repository.update(uuid, patch, db)
      if (row.is_primary === 1) await this.repository.promoteOldestActive(userId, uuid, db)
      if (unrecorded) await issuedCertificates.record(db, unrecorded)
      await issuedCertificates.revokeOfSignature(db, uuid, at)
    }, { type: 'signature.revoked', row: { ...row, ...patch }, at })
  }

  /**
   * A certificate the CA issued before it kept a register (migration 009) gets its entry when
   * its signature is revoked, read from the PKCS#12. One that no longer opens as a usable
   * certificate (expired) is left out: a CRL need not list expired certificates (RFC 5280 3.3).
   */
  async #unrecordedIssuedCertificate(row: DigitalSignatureTable) {
    if (row.certificate_source !== 'issued' || !row.certificate_p12 || !row.certificate_password) return undefined
    if (await issuedCertificates.ofSignature(this.repository.db, row.uuid)) return undefined
    try {
      const certificate = await this.certificates.inspect(Buffer.from(row.certificate_p12, 'base64'), this.secrets.open(row.certificate_password, row.uuid))
      return { serial: normalizeSerial(certificate.serialNumber), subject: certificate.subject, signature_uuid: row.uuid, not_after: certificate.notAfter.toISOString(), issued_at: row.created_at, revoked_at: null }
    } catch {
      return undefined
    }
  }

  async image(userId: string, uuid: string): Promise<{ mime: string; bytes: Buffer }> {
    const row = await this.#own(userId, uuid)
    return { mime: row.image_mime ?? 'image/png', bytes: Buffer.from(row.image_base64 ?? '', 'base64') }
  }

  /** The signature a user signs with: theirs, a library signature, and active — else 404. */
  async signingMaterial(userId: string, uuid: string): Promise<SigningMaterial> {
    const row = await this.#own(userId, uuid)
    if (row.status !== 'active' || !row.certificate_p12 || !row.certificate_password || !row.image_base64) {
      throw ERR_NOT_FOUND('Signature not found or no longer active')
    }
    return {
      uuid: row.uuid,
      userId: row.user_id,
      label: row.label,
      image: Buffer.from(row.image_base64, 'base64'),
      p12: Buffer.from(row.certificate_p12, 'base64'),
      password: this.secrets.open(row.certificate_password, row.uuid),
      subject: row.certificate_subject,
    }
  }
}
