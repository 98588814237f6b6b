// Where the PKI is reached: the routes are mounted at these paths, and the certificates the CA
// issues carry the same addresses under PUBLIC_URL.

export const PKI_PATH = {
  caPem: '/pki/ca.pem',
  caDer: '/pki/ca.cer',
  crl: '/pki/crl',
  ocsp: '/pki/ocsp',
  tsa: '/pki/tsa',
} as const

export interface PkiUrls {
  crl: string
  ocsp: string
  caIssuers: string
}

/**
 * caIssuers points at the DER certificate, not the PEM: RFC 5280 section 4.2.2.1 has the URI
 * name "a single DER encoded certificate" (application/pkix-cert), and validators that fetch it
 * (Windows, Adobe, openssl's verify with -trusted_first off) do not read PEM.
 */
export function pkiUrls(origin: string): PkiUrls {
  const base = origin.replace(/\/+$/, '')
  return { crl: base + PKI_PATH.crl, ocsp: base + PKI_PATH.ocsp, caIssuers: base + PKI_PATH.caDer }
}
