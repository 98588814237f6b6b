import { ERR_INVALID_TEMPLATE_KEY } from '../errors.ts'

// Keys appear in URLs, file names and database rows: nothing that needs escaping in any of them.
export const TEMPLATE_KEY = /^[a-z0-9][a-z0-9._-]*$/
export const MAX_KEY_LENGTH = 120

export function isValidTemplateKey(key: unknown): key is string {
  return typeof key === 'string' && key.length <= MAX_KEY_LENGTH && TEMPLATE_KEY.test(key) && !key.includes('..')
}

export function assertTemplateKey(key: unknown, what = 'template key'): string {
  if (!isValidTemplateKey(key)) {
    throw ERR_INVALID_TEMPLATE_KEY(`Invalid ${what} ${JSON.stringify(key)}: use [a-z0-9][a-z0-9._-]* (at most ${MAX_KEY_LENGTH} characters, no "..")`)
  }
  return key
}
