import path from 'node:path'
import { loadOrCreateKeyFile } from '../../../core/storage/key-file.ts'
import { createCertificateAuthority, loadCertificateAuthority, serializeCertificateAuthority, type SerializedCertificateAuthority } from '../certificates/index.ts'

/**
 * The application's own certificate authority, created on first boot and kept (key and
 * certificate together, one file, mode 0600) under the storage folder's keys/. One file written
 * with 'wx' means two instances booting at once end up with the same CA.
 */
export async function loadOrCreateAppCertificateAuthority(keysDir: string, commonName = 'Signature Application CA'): Promise<SerializedCertificateAuthority> {
  const file = path.join(keysDir, 'certificate-authority.json')
  const bytes = await loadOrCreateKeyFile(
    file,
    () => Buffer.from(JSON.stringify(serializeCertificateAuthority(createCertificateAuthority({ commonName })))),
    (content) => {
      try {
        const parsed = JSON.parse(content.toString('utf8'))
        return typeof parsed.keyPem === 'string' && typeof parsed.certPem === 'string'
      } catch {
        return false
      }
    },
  )
  const serialized = JSON.parse(bytes.toString('utf8')) as SerializedCertificateAuthority
  loadCertificateAuthority(serialized) // refuses a key that does not match its certificate, at boot
  return serialized
}
