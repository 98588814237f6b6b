import { randomBytes } from 'node:crypto'
import { mkdir, readFile, writeFile } from 'node:fs/promises'
import path from 'node:path'

/**
 * A secret kept in a file (mode 0600): read it, or create it once. When two processes start at
 * the same moment, 'wx' makes exactly one of them write; the other reads the winner's key.
 */
export async function loadOrCreateKeyFile(file: string, create: () => Buffer = () => randomBytes(32), isValid: (key: Buffer) => boolean = (k) => k.length === 32): Promise<Buffer> {
  try {
    const key = await readFile(file)
    if (isValid(key)) return key
    throw new Error(`The key file ${file} is damaged; remove it to create a new one (data sealed with the old key becomes unreadable)`)
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error
  }
  await mkdir(path.dirname(file), { recursive: true, mode: 0o700 })
  const key = create()
  try {
    await writeFile(file, key, { mode: 0o600, flag: 'wx' })
    return key
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return readFile(file)
    throw error
  }
}

/**
 * A JSON document kept as a key file (a CA, a certificate with its password), created once like
 * loadOrCreateKeyFile. A file that does not parse, or lacks one of `stringFields`, is damaged.
 */
export async function loadOrCreateJsonKeyFile<T extends object>(file: string, create: () => T, stringFields: ReadonlyArray<keyof T & string>): Promise<T> {
  const isValid = (content: Buffer) => {
    try {
      const parsed = JSON.parse(content.toString('utf8'))
      return stringFields.every((field) => typeof parsed?.[field] === 'string')
    } catch {
      return false
    }
  }
  const bytes = await loadOrCreateKeyFile(file, () => Buffer.from(JSON.stringify(create())), isValid)
  return JSON.parse(bytes.toString('utf8')) as T
}

/** A 32-byte key given as 64 hex characters or base64 (environment variables). */
export function parseKey32(value: string, name: string): Buffer {
  const key = /^[0-9a-f]{64}$/i.test(value) ? Buffer.from(value, 'hex') : Buffer.from(value, 'base64')
  if (key.length !== 32) throw new Error(`${name} must be 32 bytes, as 64 hex characters or base64`)
  return key
}
