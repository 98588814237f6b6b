// Certificates read once per verification. Every signature of a document carries its CA's
// certificate (and a timestamp its TSA's), the DSS holds them again, and node:crypto's
// X509Certificate costs ~60 µs a parse: row 19's ten signatures read 20 certificates, 11 of them
// one CA's. A reader lives for one verifyPdf call only; an X509Certificate is immutable, so
// signatures sharing one judge nothing differently (each is still checked against its own CMS).
import { X509Certificate } from 'node:crypto'

export class CertificateReader {
  private readonly known = new Map<string, X509Certificate>()

  /** The certificate DER `der` holds; throws like X509Certificate when it is not one (nothing is kept). */
  read(der: Buffer): X509Certificate {
    const key = der.toString('latin1')
    let certificate = this.known.get(key)
    if (!certificate) {
      certificate = new X509Certificate(der)
      this.known.set(key, certificate)
    }
    return certificate
  }
}
