// Reads a CMS SignedData (RFC 5652): what a PDF signature's /Contents and an RFC 3161 token hold.
import type { X509Certificate } from 'node:crypto'
import { CertificateReader } from './certificate-reader.ts'
import { content, integerHex, kids, octets, oidOf, parseNode, raw, sameBytes, tagged, type Node } from '../pdf/read-der.ts'
import { certificateIdentity } from './certificate-identity.ts'

export const OID = {
  signedData: '1.2.840.113549.1.7.2',
  contentType: '1.2.840.113549.1.9.3',
  messageDigest: '1.2.840.113549.1.9.4',
  signingTime: '1.2.840.113549.1.9.5',
  signingCertificate: '1.2.840.113549.1.9.16.2.12',
  signingCertificateV2: '1.2.840.113549.1.9.16.2.47',
  timeStampToken: '1.2.840.113549.1.9.16.2.14',
  tstInfo: '1.2.840.113549.1.9.16.1.4',
  adbeRevocationInfo: '1.2.840.113583.1.1.8',
} as const

export interface Attribute {
  oid: string
  values: Node[]
}

export interface SignerInfo {
  digestAlgorithm: Node
  signatureAlgorithm: Node
  /** The signed attributes re-tagged as a SET OF: the bytes the signature covers. */
  signedAttributesDer?: Buffer
  signedAttributes: Attribute[]
  unsignedAttributes: Attribute[]
  signature: Buffer
  /** Issuer Name DER + serial, or subjectKeyIdentifier: who signed. */
  sid: { issuer: Buffer; serial: string } | { keyId: Buffer }
}

export interface SignedData {
  eContentType: string
  /** The encapsulated content (a TSTInfo in a timestamp token); absent when detached. */
  eContent?: Buffer
  certificates: X509Certificate[]
  /** CRLs carried in the SignedData (DER). */
  crls: Buffer[]
  signerInfo: SignerInfo
}

/** `certificates`: the verification's reader, so a certificate several signatures carry is parsed once. */
export function parseSignedData(der: Buffer, certificates: CertificateReader = new CertificateReader()): SignedData {
  const contentInfo = parseNode(der)
  const [type, explicit] = kids(contentInfo)
  if (!type || oidOf(type) !== OID.signedData || !explicit) throw new Error('Not a CMS SignedData')
  const fields = kids(kids(explicit)[0]!)
  // version, digestAlgorithms, encapContentInfo, [0] certificates?, [1] crls?, signerInfos
  const encap = kids(fields[2]!)
  const eContentWrapper = tagged(encap.slice(1), 0)
  const certificatesField = fields.slice(3).find((f) => f.tag === 0xa0)
  const crlsField = fields.slice(3).find((f) => f.tag === 0xa1)
  const signerInfos = fields.at(-1)!
  if (signerInfos.tag !== 0x31) throw new Error('CMS SignedData has no signerInfos')
  const [first] = kids(signerInfos)
  if (!first) throw new Error('CMS SignedData has no signer')
  const carried: X509Certificate[] = []
  for (const node of certificatesField ? kids(certificatesField) : []) {
    // Only X.509 certificates (SEQUENCE); attribute certificates and others are skipped.
    if (node.tag !== 0x30) continue
    const certificate = certificates.read(raw(node))
    sameBytes(certificate.raw, node) // certificateIdentity() reads it again
    carried.push(certificate)
  }
  return {
    eContentType: oidOf(encap[0]!),
    eContent: eContentWrapper ? octets(kids(eContentWrapper)[0]!) : undefined,
    certificates: carried,
    crls: crlsField ? kids(crlsField).filter((n) => n.tag === 0x30).map(raw) : [],
    signerInfo: parseSignerInfo(first),
  }
}

function parseSignerInfo(node: Node): SignerInfo {
  const fields = kids(node)
  const sidNode = fields[1]!
  const sid = sidNode.tag === 0x80
    ? { keyId: content(sidNode) }
    : { issuer: raw(kids(sidNode)[0]!), serial: integerHex(kids(sidNode)[1]!) }
  let at = 3
  const signedNode = fields[at]?.tag === 0xa0 ? fields[at++] : undefined
  const signatureAlgorithm = fields[at++]!
  const signature = content(fields[at++]!)
  const unsignedNode = fields[at]?.tag === 0xa1 ? fields[at] : undefined
  return {
    digestAlgorithm: fields[2]!,
    signatureAlgorithm,
    signedAttributesDer: signedNode ? Buffer.concat([Buffer.from([0x31]), raw(signedNode).subarray(1)]) : undefined,
    signedAttributes: signedNode ? attributes(signedNode) : [],
    unsignedAttributes: unsignedNode ? attributes(unsignedNode) : [],
    signature,
    sid,
  }
}

function attributes(node: Node): Attribute[] {
  return kids(node).map((attribute) => {
    const [type, values] = kids(attribute)
    return { oid: oidOf(type!), values: values ? kids(values) : [] }
  })
}

export function attribute(list: Attribute[], oid: string): Node | undefined {
  return list.find((a) => a.oid === oid)?.values[0]
}

/** The certificate the SignerInfo names, among those given. */
export function findSignerCertificate(signerInfo: SignerInfo, certificates: X509Certificate[]): X509Certificate | undefined {
  return certificates.find((certificate) => {
    const identity = certificateIdentity(certificate)
    if ('keyId' in signerInfo.sid) return identity.subjectKeyId?.equals(signerInfo.sid.keyId) ?? false
    return identity.serial === signerInfo.sid.serial && identity.issuer.equals(signerInfo.sid.issuer)
  })
}
