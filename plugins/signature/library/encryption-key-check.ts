import type { Kysely } from 'kysely'
import type { SecretBox } from './secret-box.ts'

/**
 * Stops the boot when the encryption key is not the one the database's secrets were sealed with
 * (another instance's SIGNATURE_ENCRYPTION_KEY, a key file lost with its storage folder): without
 * this the instance would start and then answer every signing and webhook with a 500. One sealed
 * value of each kind is the check value; with none stored yet any key is right.
 */
export async function assertEncryptionKeyOpensSecrets(db: Kysely<any>, secrets: SecretBox): Promise<void> {
  const certificate = await db.selectFrom('digital_signatures').select(['uuid', 'certificate_password']).where('certificate_password', 'is not', null).limit(1).executeTakeFirst()
  const endpoint = await db.selectFrom('webhook_endpoints').select(['id', 'secret_sealed']).limit(1).executeTakeFirst()
  const checks: Array<[string, string, string]> = [
    ...(certificate ? [[certificate.certificate_password as string, certificate.uuid as string, 'a certificate password'] as [string, string, string]] : []),
    ...(endpoint ? [[endpoint.secret_sealed as string, endpoint.id as string, 'a webhook secret'] as [string, string, string]] : []),
  ]
  for (const [sealed, associatedData, what] of checks) {
    try {
      secrets.open(sealed, associatedData)
    } catch {
      throw new Error(`SIGNATURE_ENCRYPTION_KEY is not the key the database's secrets were sealed with (it does not open ${what}): set it to that key (every instance shares one; see storage/keys/signature-encryption.key where it was generated)`)
    }
  }
}
