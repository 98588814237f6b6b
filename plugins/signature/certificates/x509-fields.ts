// The few fields of an X.509 certificate (RFC 5280) that signing and timestamp checks need,
// read straight from DER. node:crypto's X509Certificate covers validity, keys and subjects but
// not key usage bits nor whether an extension is critical; node-forge cannot read EC keys at all.
import { booleanOf, content, expectTag, kids, oidOf, parseNode, parseRoot, raw, type Node } from '../pdf/read-der.ts'

export const OID_KEY_USAGE = '2.5.29.15'
export const OID_EXTENDED_KEY_USAGE = '2.5.29.37'
export const OID_TIME_STAMPING = '1.3.6.1.5.5.7.3.8'

export interface CertificateExtension {
  oid: string
  critical: boolean
  /** The extnValue's content: the DER of the extension itself. */
  value: Buffer
}

/** TBSCertificate's fields, with the optional version skipped so indexes are stable. */
function tbsFields(certificate: Buffer): { fields: Node[]; hasVersion: boolean } {
  const tbs = kids(parseRoot(certificate))[0]
  if (!tbs || tbs.tag !== 0x30) throw new Error('Not an X.509 certificate')
  const fields = kids(tbs)
  return { fields, hasVersion: fields[0]?.tag === 0xa0 }
}

/** The issuer's Name and the serial number, each as its full DER encoding. */
export function issuerAndSerial(certificate: Buffer): { issuer: Buffer; serial: Buffer } {
  const { fields, hasVersion } = tbsFields(certificate)
  const serial = expectTag(fields[hasVersion ? 1 : 0], 0x02, 'a serial number')
  const issuer = expectTag(fields[hasVersion ? 3 : 2], 0x30, 'an issuer name')
  return { issuer: raw(issuer), serial: raw(serial) }
}

export function certificateExtensions(certificate: Buffer): CertificateExtension[] {
  const { fields } = tbsFields(certificate)
  const wrapper = fields.find((field) => field.tag === 0xa3)
  if (!wrapper) return []
  const list = expectTag(kids(wrapper)[0], 0x30, 'the extensions')
  return kids(list).map((extension) => {
    const [id, second, third] = kids(extension)
    const critical = second?.tag === 0x01 ? booleanOf(second) : false
    const value = expectTag(second?.tag === 0x01 ? third : second, 0x04, 'an extension value')
    return { oid: oidOf(expectTag(id, 0x06, 'an extension id')), critical, value: content(value) }
  })
}

/** keyUsage's digitalSignature (bit 0) and nonRepudiation (bit 1); null without the extension. */
export function signingKeyUsage(certificate: Buffer): { digitalSignature: boolean; nonRepudiation: boolean } | null {
  const extension = certificateExtensions(certificate).find((e) => e.oid === OID_KEY_USAGE)
  if (!extension) return null
  const bits = expectTag(parseNode(extension.value), 0x03, 'a BIT STRING')
  const first = content(bits)[1] ?? 0
  return { digitalSignature: Boolean(first & 0x80), nonRepudiation: Boolean(first & 0x40) }
}

/** extKeyUsage's purposes and whether it is critical; null without the extension. */
export function extendedKeyUsage(certificate: Buffer): { critical: boolean; purposes: string[] } | null {
  const extension = certificateExtensions(certificate).find((e) => e.oid === OID_EXTENDED_KEY_USAGE)
  if (!extension) return null
  const list = expectTag(parseNode(extension.value), 0x30, 'a list of purposes')
  return { critical: extension.critical, purposes: kids(list).map(oidOf) }
}
