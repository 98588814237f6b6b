// Asks the revocation services a certificate names (AIA OCSP, CRL distribution points), when the
// verifier is allowed to go online. Only for certificates whose chain is already trusted: the
// URLs then come from a CA we trust, not from whoever uploaded the file (no requests to
// addresses an attacker chose).
import type { X509Certificate } from 'node:crypto'
import { digest } from './algorithms.ts'
import { certificateIdentity } from './certificate-identity.ts'
import { oid, nullValue, octetString, sequence, tlv } from '../pdf/der.ts'
import { bestStatus, statusFromCrl, statusFromOcsp, type RevocationStatus } from './revocation-data.ts'

export interface OnlineOptions {
  timeoutMs: number
  /** Largest answer read (a CRL of a big CA can be large; ours are small). */
  maxBytes: number
}

export async function onlineStatus(certificate: X509Certificate, issuer: X509Certificate, options: OnlineOptions): Promise<RevocationStatus | undefined> {
  const identity = certificateIdentity(certificate)
  for (const url of identity.ocspUrls.filter(isHttp)) {
    const answer = await fetchOcspAnswer(url, ocspRequest(certificate, issuer), options)
    const status = answer && statusFromOcsp(answer, certificate, issuer)
    if (status) return status
  }
  const fromCrls: Array<RevocationStatus | undefined> = []
  for (const url of identity.crlUrls.filter(isHttp)) {
    const answer = await fetchCrl(url, options)
    fromCrls.push(answer && statusFromCrl(answer, certificate, issuer))
  }
  return bestStatus(fromCrls)
}

/** OCSPRequest with one CertID (SHA-1, as RFC 6960 responders universally accept). */
export function ocspRequest(certificate: X509Certificate, issuer: X509Certificate): Buffer {
  return ocspRequestFor([[certificate, issuer]])
}

/** OCSPRequest with one CertID per certificate: one answer (one signature) covers them all. */
export function ocspRequestFor(pairs: Array<[certificate: X509Certificate, issuer: X509Certificate]>): Buffer {
  const requests = pairs.map(([certificate, issuer]) => {
    const issuerIdentity = certificateIdentity(issuer)
    const serialHex = certificateIdentity(certificate).serial
    let serial = Buffer.from(serialHex.length % 2 ? `0${serialHex}` : serialHex, 'hex')
    if (serial[0]! & 0x80) serial = Buffer.concat([Buffer.from([0]), serial])
    return sequence(sequence(
      sequence(oid('1.3.14.3.2.26'), nullValue()),
      octetString(digest('sha1', [issuerIdentity.subject])),
      octetString(digest('sha1', [issuerIdentity.publicKeyBits])),
      tlv(0x02, serial),
    ))
  })
  return sequence(sequence(sequence(...requests)))
}

export function isHttp(url: string): boolean {
  return /^https?:\/\//i.test(url)
}

/** An OCSP responder's answer (bounded in time and size), or undefined. */
export async function fetchOcspAnswer(url: string, body: Buffer, options: OnlineOptions): Promise<Buffer | undefined> {
  return fetchBytes(url, { method: 'POST', body: new Uint8Array(body), headers: { 'content-type': 'application/ocsp-request' } }, options)
}

/** A CRL distribution point's list (bounded in time and size), or undefined. */
export async function fetchCrl(url: string, options: OnlineOptions): Promise<Buffer | undefined> {
  return fetchBytes(url, { method: 'GET' }, options)
}

async function fetchBytes(url: string, init: RequestInit, options: OnlineOptions): Promise<Buffer | undefined> {
  try {
    const response = await fetch(url, { ...init, redirect: 'error', signal: AbortSignal.timeout(options.timeoutMs) })
    if (!response.ok || !response.body) return undefined
    const chunks: Buffer[] = []
    let size = 0
    for await (const chunk of response.body as AsyncIterable<Uint8Array>) {
      size += chunk.length
      if (size > options.maxBytes) return undefined
      chunks.push(Buffer.from(chunk))
    }
    return Buffer.concat(chunks)
  } catch {
    return undefined
  }
}
