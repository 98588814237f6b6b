import path from 'node:path'
import { loadOrCreateJsonKeyFile } from '../../../core/storage/key-file.ts'
import { loadCertificateAuthority, issueUserCertificate, readP12, type SerializedCertificateAuthority, type SigningIdentity } from '../certificates/index.ts'

/**
 * The application's own signing certificate, which certifies (DocMDP P=2) every frozen session
 * document. Issued once from the application's CA and kept next to it under storage/keys as one
 * JSON file (PKCS#12 + its password, mode 0600, written with 'wx' so two instances booting at once
 * share one certificate). The password sits beside the PKCS#12 on purpose: the file is exactly as
 * sensitive as the CA key file beside it, and sealing it with a key from the same folder would
 * add nothing. Opened once per process (forge's PBKDF2 is slow) and reused as an identity.
 */
export async function loadOrCreateApplicationSigner(keysDir: string, ca: SerializedCertificateAuthority, name = 'Signature Application'): Promise<SigningIdentity> {
  const file = path.join(keysDir, 'application-signing-certificate.json')
  const stored = await loadOrCreateJsonKeyFile(file, () => {
    const issued = issueUserCertificate(loadCertificateAuthority(ca), { name, email: 'signing@application.invalid', validityYears: 10 })
    return { p12: issued.p12.toString('base64'), password: issued.password, subject: issued.subject }
  }, ['p12', 'password'])
  return readP12(Buffer.from(stored.p12, 'base64'), stored.password)
}
