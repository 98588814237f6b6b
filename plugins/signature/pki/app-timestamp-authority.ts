// The application's timestamp authority: its own key and a certificate from the application's
// CA whose only (critical) extended key usage is timeStamping, as RFC 3161 section 2.3 requires.
// Created once and kept beside the CA under storage/keys, so every instance signs as one TSA.
import { createPrivateKey, createPublicKey, X509Certificate, type KeyObject } from 'node:crypto'
import path from 'node:path'
import forge from 'node-forge'
import { loadOrCreateJsonKeyFile } from '../../../core/storage/key-file.ts'
import { loadCertificateAuthority, type CertificateAuthority, type SerializedCertificateAuthority } from '../certificates/index.ts'
import { nativeSigner } from '../certificates/forge-keys.ts'
import { newKeyAndCertificate } from '../certificates/new-certificate.ts'
import type { TimestampAuthorityKeys } from './respond-to-timestamp-query.ts'

export interface SerializedTimestampAuthority {
  keyPem: string
  certPem: string
}

export function issueTimestampAuthority(ca: CertificateAuthority, options: { commonName?: string; validityYears?: number; now?: Date } = {}): SerializedTimestampAuthority {
  const { commonName = 'Signature Application TSA', validityYears = 10, now = new Date() } = options
  const { keys, cert } = newKeyAndCertificate(now, validityYears)
  cert.setSubject([{ name: 'commonName', value: commonName }])
  cert.setIssuer(ca.certificate.subject.attributes)
  cert.setExtensions([
    { name: 'basicConstraints', cA: false, critical: true },
    { name: 'keyUsage', digitalSignature: true, nonRepudiation: true, critical: true },
    { name: 'extKeyUsage', timeStamping: true, critical: true },
    { name: 'subjectKeyIdentifier' },
    { name: 'authorityKeyIdentifier', keyIdentifier: ca.certificate.generateSubjectKeyIdentifier().getBytes() },
  ])
  cert.sign(nativeSigner(ca.privateKey), forge.md.sha256.create())
  return { keyPem: keys.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(), certPem: forge.pki.certificateToPem(cert) }
}

/** Key and certificates as respondToTimestampQuery takes them; refuses a TSA the CA did not issue. */
export function openTimestampAuthority(serialized: SerializedTimestampAuthority, ca: SerializedCertificateAuthority): TimestampAuthorityKeys {
  const privateKey: KeyObject = createPrivateKey(serialized.keyPem)
  const tsa = new X509Certificate(serialized.certPem)
  const authority = new X509Certificate(ca.certPem)
  // A CA file replaced after the TSA file was written would leave a TSA no one can chain.
  if (!tsa.verify(authority.publicKey)) throw new Error('The timestamp authority certificate was not issued by the application CA: remove timestamp-authority.json to issue a new one')
  const spki = (key: KeyObject) => key.export({ type: 'spki', format: 'der' })
  if (!spki(createPublicKey(privateKey)).equals(spki(tsa.publicKey))) throw new Error('The timestamp authority key does not match its certificate')
  return { privateKey, certificates: [Buffer.from(tsa.raw), Buffer.from(authority.raw)] }
}

export async function loadOrCreateAppTimestampAuthority(keysDir: string, ca: SerializedCertificateAuthority): Promise<SerializedTimestampAuthority> {
  const file = path.join(keysDir, 'timestamp-authority.json')
  const serialized = await loadOrCreateJsonKeyFile<SerializedTimestampAuthority>(file, () => issueTimestampAuthority(loadCertificateAuthority(ca)), ['keyPem', 'certPem'])
  openTimestampAuthority(serialized, ca) // refuses a mismatched key or a foreign issuer at boot
  return serialized
}
