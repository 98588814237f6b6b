import { randomBytes } from 'node:crypto'
import { mkdir, readFile, writeFile } from 'node:fs/promises'
import path from 'node:path'

/** SESSION_KEY when set (several instances share it); otherwise a key kept under storage/. */
export async function loadSessionKey(configured: string | undefined, storagePath: string): Promise<Buffer> {
  if (configured) {
    const key = /^[0-9a-f]{64}$/i.test(configured) ? Buffer.from(configured, 'hex') : Buffer.from(configured, 'base64')
    if (key.length !== 32) throw new Error('SESSION_KEY must be 32 bytes, as 64 hex characters or base64')
    return key
  }
  const file = path.join(storagePath, 'keys', 'session.key')
  try {
    const key = await readFile(file)
    if (key.length === 32) return key
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error
  }
  const key = randomBytes(32)
  await mkdir(path.dirname(file), { recursive: true, mode: 0o700 })
  // 'wx': if two processes race, the loser fails here and re-reads the winner's key.
  try {
    await writeFile(file, key, { mode: 0o600, flag: 'wx' })
    return key
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return readFile(file)
    throw error
  }
}
