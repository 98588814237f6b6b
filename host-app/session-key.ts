import path from 'node:path'
import { loadOrCreateKeyFile, parseKey32 } from '../core/index.ts'

/** SESSION_KEY when set (several instances share it); otherwise a key kept under storage/. */
export async function loadSessionKey(configured: string | undefined, storagePath: string): Promise<Buffer> {
  if (configured) return parseKey32(configured, 'SESSION_KEY')
  return loadOrCreateKeyFile(path.join(storagePath, 'keys', 'session.key'))
}
