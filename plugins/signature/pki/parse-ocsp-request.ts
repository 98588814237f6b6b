// RFC 6960 OCSPRequest, read strictly. A request the responder cannot read is answered with the
// protocol's malformedRequest status, which is what OCSP clients understand.
import { content, expectTag, kids, oidOf, parseRoot, raw } from '../pdf/read-der.ts'
import { normalizeSerial } from './certificate-fields.ts'

export const OID_OCSP_NONCE = '1.3.6.1.5.5.7.48.1.2'

/** CertID hash algorithms, by OID: SHA-1 is what most clients (openssl among them) still send. */
export const CERT_ID_HASHES: Record<string, string> = {
  '1.3.14.3.2.26': 'sha1',
  '2.16.840.1.101.3.4.2.1': 'sha256',
  '2.16.840.1.101.3.4.2.2': 'sha384',
  '2.16.840.1.101.3.4.2.3': 'sha512',
}

/** More CertIDs than this in one request is an attempt to make the responder work, not a client. */
export const MAX_CERT_IDS = 20

export interface OcspCertId {
  /** The CertID exactly as sent: the SingleResponse repeats it. */
  der: Buffer
  /** A node:crypto hash name, or null when the algorithm is not one we know (status: unknown). */
  hash: string | null
  issuerNameHash: Buffer
  issuerKeyHash: Buffer
  serial: string
}

export interface OcspRequest {
  certIds: OcspCertId[]
  /** The nonce extension exactly as sent, echoed among the response extensions. */
  nonceExtensionDer: Buffer | null
}

export class OcspRequestError extends Error {}

export function parseOcspRequest(der: Buffer): OcspRequest {
  try {
    const request = expectTag(parseRoot(der, { der: true }), 0x30, 'an OCSPRequest')
    const [tbs] = kids(request)
    if (!tbs || tbs.tag !== 0x30) throw new Error('no TBSRequest')
    const fields = kids(tbs)
    let at = 0
    if (fields[at]?.tag === 0xa0) at++ // version, v1 (DEFAULT) when absent
    if (fields[at]?.tag === 0xa1) at++ // requestorName
    const list = fields[at++]
    if (!list || list.tag !== 0x30) throw new Error('no requestList')
    const entries = kids(list)
    if (entries.length === 0 || entries.length > MAX_CERT_IDS) throw new Error(`1 to ${MAX_CERT_IDS} certificates per request`)
    const certIds = entries.map((entry) => {
      if (entry.tag !== 0x30) throw new Error('a Request is not a SEQUENCE')
      const certId = kids(entry)[0]
      if (!certId || certId.tag !== 0x30) throw new Error('no CertID')
      const [algorithm, nameHash, keyHash, serial, ...rest] = kids(certId)
      if (!algorithm || algorithm.tag !== 0x30 || nameHash?.tag !== 0x04 || keyHash?.tag !== 0x04 || serial?.tag !== 0x02 || rest.length) throw new Error('malformed CertID')
      const algorithmOid = kids(algorithm)[0]
      if (!algorithmOid || algorithmOid.tag !== 0x06) throw new Error('malformed CertID algorithm')
      const serialBytes = content(serial)
      if (serialBytes.length === 0 || serialBytes.length > 21) throw new Error('serial numbers are 1 to 20 octets')
      return {
        der: raw(certId),
        hash: CERT_ID_HASHES[oidOf(algorithmOid)] ?? null,
        issuerNameHash: content(nameHash),
        issuerKeyHash: content(keyHash),
        serial: normalizeSerial(serialBytes.toString('hex')),
      }
    })
    let nonceExtensionDer: Buffer | null = null
    const extensions = fields[at]
    if (extensions?.tag === 0xa2) {
      at++
      const list = kids(extensions)[0]
      if (!list || list.tag !== 0x30) throw new Error('malformed requestExtensions')
      for (const extension of kids(list)) {
        const id = kids(extension)[0]
        if (!id || id.tag !== 0x06) throw new Error('malformed extension')
        if (oidOf(id) !== OID_OCSP_NONCE) continue
        // RFC 8954: a nonce of 1 to 32 octets (the extnValue wraps an OCTET STRING).
        const value = kids(extension).at(-1)!
        if (value.tag !== 0x04 || value.contentEnd - value.contentStart > 40) throw new Error('the nonce is too long')
        nonceExtensionDer = raw(extension)
      }
    }
    if (at !== fields.length) throw new Error('unexpected fields in the TBSRequest')
    return { certIds, nonceExtensionDer }
  } catch (cause) {
    throw new OcspRequestError(`not a valid OCSP request: ${(cause as Error).message}`)
  }
}
