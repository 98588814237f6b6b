// The parts of an X.509 certificate that node:crypto's X509Certificate does not hand out as bytes:
// the issuer and subject Names as DER (CMS and OCSP match on them), the public key's bits (OCSP's
// issuerKeyHash), the subject key identifier and the revocation service URLs.
import type { X509Certificate } from 'node:crypto'
import { bits, content, integerHex, kids, octets, oidOf, parseNode, raw, type Node } from '../pdf/read-der.ts'

export interface CertificateIdentity {
  issuer: Buffer
  subject: Buffer
  serial: string
  /** The subjectPublicKey BIT STRING's bits. */
  publicKeyBits: Buffer
  subjectKeyId?: Buffer
  ocspUrls: string[]
  crlUrls: string[]
  /** id-pkix-ocsp-nocheck: an OCSP responder's certificate that is not itself checked. */
  ocspNoCheck: boolean
}

const cache = new WeakMap<X509Certificate, CertificateIdentity>()

export function certificateIdentity(certificate: X509Certificate): CertificateIdentity {
  const known = cache.get(certificate)
  if (known) return known
  const der = certificate.raw
  const tbs = kids(kids(parseNode(der))[0]!)
  const hasVersion = tbs[0]!.tag === 0xa0
  const at = hasVersion ? 1 : 0
  const extensionsNode = tbs.slice(at + 6).find((n) => n.tag === 0xa3)
  const extensions = new Map<string, Buffer>()
  for (const extension of extensionsNode ? kids(kids(extensionsNode)[0]!) : []) {
    const parts = kids(extension)
    extensions.set(oidOf(parts[0]!), octets(parts.at(-1)!))
  }
  const ski = extensions.get('2.5.29.14')
  const aia = extensions.get('1.3.6.1.5.5.7.1.1')
  const cdp = extensions.get('2.5.29.31')
  const identity: CertificateIdentity = {
    serial: integerHex(tbs[at]!),
    issuer: raw(tbs[at + 2]!),
    subject: raw(tbs[at + 4]!),
    publicKeyBits: bits(kids(tbs[at + 5]!)[1]!),
    subjectKeyId: ski ? content(parseNode(ski)) : undefined,
    ocspUrls: aia ? accessUrls(aia, '1.3.6.1.5.5.7.48.1') : [],
    crlUrls: cdp ? uris(parseNode(cdp)) : [],
    ocspNoCheck: extensions.has('1.3.6.1.5.5.7.48.1.5'),
  }
  cache.set(certificate, identity)
  return identity
}

function accessUrls(aia: Buffer, method: string): string[] {
  return kids(parseNode(aia)).flatMap((description) => {
    const [accessMethod, location] = kids(description)
    return accessMethod && location && oidOf(accessMethod) === method && location.tag === 0x86 ? [content(location).toString('latin1')] : []
  })
}

/** Every uniformResourceIdentifier ([6] IA5String) anywhere inside a value. */
function uris(node: Node): string[] {
  if (node.tag === 0x86) return [content(node).toString('latin1')]
  if (!(node.tag & 0x20)) return []
  return kids(node).flatMap(uris)
}

/** "CN=Alice, O=Example": X509Certificate's one-per-line form on one line. */
export function nameText(name: string): string {
  return name.split('\n').filter(Boolean).join(', ')
}
