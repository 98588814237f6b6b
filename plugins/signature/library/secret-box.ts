import { createCipheriv, createDecipheriv, createHmac, randomBytes } from 'node:crypto'

const VERSION = 'v1'

/**
 * AES-256-GCM for secrets kept in rows (a certificate's password). The associated data binds a
 * sealed value to its row: copied into another row, it no longer opens.
 */
export class SecretBox {
  readonly #key: Buffer

  constructor(key: Buffer) {
    if (key.length !== 32) throw new Error('SecretBox needs a 32-byte key')
    this.#key = key
  }

  seal(plaintext: string, associatedData: string): string {
    const iv = randomBytes(12)
    const cipher = createCipheriv('aes-256-gcm', this.#key, iv)
    cipher.setAAD(Buffer.from(associatedData))
    const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()])
    return [VERSION, iv.toString('base64'), cipher.getAuthTag().toString('base64'), body.toString('base64')].join('.')
  }

  /**
   * An HMAC-SHA256 under a key derived from this one for `purpose`: a value only the holder of the
   * encryption key can compute again (sign links are mailed twice and stored only as a digest).
   */
  mac(purpose: string, data: string): Buffer {
    const derived = createHmac('sha256', this.#key).update(`secret-box mac: ${purpose}`).digest()
    return createHmac('sha256', derived).update(data).digest()
  }

  open(sealed: string, associatedData: string): string {
    const [version, iv, tag, body] = sealed.split('.')
    if (version !== VERSION || !iv || !tag || body === undefined) throw new Error('Not a sealed value')
    const decipher = createDecipheriv('aes-256-gcm', this.#key, Buffer.from(iv, 'base64'))
    decipher.setAAD(Buffer.from(associatedData))
    decipher.setAuthTag(Buffer.from(tag, 'base64'))
    return Buffer.concat([decipher.update(Buffer.from(body, 'base64')), decipher.final()]).toString('utf8')
  }
}
