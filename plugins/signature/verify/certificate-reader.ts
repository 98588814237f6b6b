// Certificates read once. Every signature of a document carries its CA's certificate (and a
// timestamp its TSA's), the DSS holds them again, and node:crypto's X509Certificate costs ~60 µs a
// parse: row 19's ten signatures read 20 certificates, 11 of them one CA's. The same CA and signer
// certificates also come back document after document, so parses are shared between verifications
// too (bounded: a few hundred certificates of ordinary size), keyed by the whole DER: an
// X509Certificate is immutable and is exactly its bytes, so a shared one judges nothing
// differently (each signature is still checked against its own CMS).
import { X509Certificate } from 'node:crypto'

const SHARED_LIMIT = 256
/** Larger certificates are rare and would let a few uploads hold megabytes: read, not kept across verifications. */
const SHARED_MAX_BYTES = 16 * 1024
const shared = new Map<string, X509Certificate>()

export class CertificateReader {
  private readonly known = new Map<string, X509Certificate>()

  /** The certificate DER `der` holds; throws like X509Certificate when it is not one (nothing is kept). */
  read(der: Buffer): X509Certificate {
    const key = der.toString('latin1')
    let certificate = this.known.get(key)
    if (!certificate) {
      certificate = shared.get(key)
      if (!certificate) {
        certificate = new X509Certificate(der)
        if (der.length <= SHARED_MAX_BYTES) {
          if (shared.size >= SHARED_LIMIT) shared.delete(shared.keys().next().value!)
          shared.set(key, certificate)
        }
      }
      this.known.set(key, certificate)
    }
    return certificate
  }
}

/** How many certificates are shared between verifications (tests). */
export function sharedCertificateCount(): number {
  return shared.size
}
