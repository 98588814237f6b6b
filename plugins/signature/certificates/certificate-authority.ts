// The application's own certificate authority: it issues the certificates of users who have
// none of their own. Self-signed, because trust in it comes from the application, not from a
// public root; validators will say "issuer isn't trusted" and still check every signature.
import { createPrivateKey, type KeyObject } from 'node:crypto'
import forge from 'node-forge'
import { fromNodePrivateKey, nativeSigner } from './forge-keys.ts'
import { newKeyAndCertificate } from './new-certificate.ts'

export interface CertificateAuthority {
  privateKey: KeyObject
  certificate: forge.pki.Certificate
  certificatePem: string
}

export interface SerializedCertificateAuthority {
  keyPem: string
  certPem: string
}

export interface CreateCertificateAuthorityOptions {
  commonName?: string
  organization?: string
  validityYears?: number
  now?: Date
}

export function createCertificateAuthority(options: CreateCertificateAuthorityOptions = {}): CertificateAuthority {
  const { commonName = 'Signature Certificate Authority', organization, validityYears = 10, now = new Date() } = options
  const { keys, cert } = newKeyAndCertificate(now, validityYears)
  const attrs: forge.pki.CertificateField[] = [{ name: 'commonName', value: commonName }]
  if (organization) attrs.push({ name: 'organizationName', value: organization })
  cert.setSubject(attrs)
  cert.setIssuer(attrs)
  cert.setExtensions([
    { name: 'basicConstraints', cA: true, critical: true },
    { name: 'keyUsage', keyCertSign: true, cRLSign: true, critical: true },
    { name: 'subjectKeyIdentifier' },
  ])
  cert.sign(nativeSigner(keys.privateKey), forge.md.sha256.create())
  return { privateKey: keys.privateKey, certificate: cert, certificatePem: forge.pki.certificateToPem(cert) }
}

export function serializeCertificateAuthority(ca: CertificateAuthority): SerializedCertificateAuthority {
  return { keyPem: ca.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(), certPem: ca.certificatePem }
}

export function loadCertificateAuthority(serialized: SerializedCertificateAuthority): CertificateAuthority {
  const privateKey = createPrivateKey(serialized.keyPem)
  const certificate = forge.pki.certificateFromPem(serialized.certPem)
  // A key and certificate stored apart can drift apart; issuing with the wrong key would make
  // every user certificate unverifiable, so refuse at load time.
  const { forgePublicKey } = fromNodePrivateKey(privateKey)
  const certKey = certificate.publicKey as forge.pki.rsa.PublicKey
  if (certKey.n.compareTo(forgePublicKey.n) !== 0 || certKey.e.compareTo(forgePublicKey.e) !== 0) {
    throw new Error('The certificate authority key does not match its certificate')
  }
  return { privateKey, certificate, certificatePem: serialized.certPem }
}
