import path from 'node:path'
import { loadOrCreateJsonKeyFile } from '../../../core/storage/key-file.ts'
import { createCertificateAuthority, loadCertificateAuthority, serializeCertificateAuthority, type SerializedCertificateAuthority } from '../certificates/index.ts'

/**
 * The application's own certificate authority, created on first boot and kept (key and
 * certificate together, one file, mode 0600) under the storage folder's keys/. One file written
 * with 'wx' means two instances booting at once end up with the same CA.
 */
export async function loadOrCreateAppCertificateAuthority(keysDir: string, commonName = 'Signature Application CA'): Promise<SerializedCertificateAuthority> {
  const file = path.join(keysDir, 'certificate-authority.json')
  const serialized = await loadOrCreateJsonKeyFile<SerializedCertificateAuthority>(
    file,
    () => serializeCertificateAuthority(createCertificateAuthority({ commonName })),
    ['keyPem', 'certPem'],
  )
  loadCertificateAuthority(serialized) // refuses a key that does not match its certificate, at boot
  return serialized
}
