import { createHash } from 'node:crypto'
import type { SecretBox } from '../library/secret-box.ts'

/**
 * The token of an external signer's link: 32 bytes (HMAC-SHA256 under a key derived from the
 * encryption key, over the request id), base64url. The database keeps only its SHA-256; the mail
 * sender computes it again for the invitation and the completion mail, so it is never stored.
 */
export function signLinkToken(secrets: Pick<SecretBox, 'mac'>, requestId: string): string {
  return secrets.mac('sign-link', requestId).toString('base64url')
}

export const SIGN_LINK_TOKEN = /^[A-Za-z0-9_-]{43}$/

export function sha256Of(value: string): string {
  return createHash('sha256').update(value).digest('hex')
}

/** Where an external signer opens their link (the UI's page). */
export const signLinkPath = (token: string) => `/sign/${token}`
/** The completed document for an external signer, by their token, for 14 days after completion. */
export const signedDocumentPath = (token: string) => `/api/sign-links/${token}/signed`

export const SIGN_LINK_DAYS = 14
