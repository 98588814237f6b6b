// Which signed-document files on the signature disk no row needs. A file is needed when a row
// points at it (a one-pass signature's document_key; a session's frozen or current document, a
// request's revision), and also when it is an earlier revision of the document a row points at:
// renewal and sealing append to the document and move the row to the new file, keeping the old
// one beside it, and every such earlier revision is a byte prefix of the current file. What a
// crash left (written, never committed) is neither: a revision that was never committed differs
// from the committed one after the shared prefix, an extension that was never committed is longer.
import type { Kysely } from 'kysely'
import type { Disk } from '../../../core/storage/disk.ts'
import type { SignatureTables } from '../database/schema.ts'

/** The folders whose files belong to rows; the sweep never judges anything else on the disk. */
export const DOCUMENT_PREFIXES = ['signed/', 'sessions/'] as const

// signed/<2>/<uuid>.pdf (signature-manager.ts); each renewal appends -renewed-<ms>-<hex> to the
// name it renews (signed-document-renewal.ts), so a twice-renewed copy carries two.
const ONE_PASS = /^signed\/[0-9a-f]{2}\/([0-9a-f-]{36})(?:-renewed-[0-9]+-[0-9a-f]+)*\.pdf$/
// sessions/<id>/<file> (session-create.ts, session-sign.ts, session-seal.ts, completion-certificate.ts)
const SESSION = /^sessions\/([0-9a-f-]{36})\/([^/]+)$/
// Made from the session's rows on demand (completion-certificate.ts): needed while the session is.
const DERIVED_SESSION_FILES = new Set(['certificate.pdf'])

/** Of `keys` (files past the grace period under DOCUMENT_PREFIXES), those that no row needs. */
export async function unneededDocuments(db: Kysely<SignatureTables>, disk: Pick<Disk, 'get'>, keys: string[]): Promise<string[]> {
  const bySignature = new Map<string, string[]>()
  const bySession = new Map<string, string[]>()
  for (const key of keys) {
    const onePass = ONE_PASS.exec(key)
    const session = SESSION.exec(key)
    // A name no writer of ours makes is somebody else's: left alone.
    if (onePass) push(bySignature, onePass[1]!, key)
    else if (session) push(bySession, session[1]!, key)
  }
  const unneeded: string[] = []
  const current = new Map<string, string | null>()
  if (bySignature.size) {
    const rows = await db.selectFrom('digital_signatures').select(['uuid', 'document_key']).where('uuid', 'in', [...bySignature.keys()]).execute()
    for (const row of rows) current.set(row.uuid, row.document_key)
    for (const [uuid, files] of bySignature) unneeded.push(...await notRevisionsOf(disk, current.get(uuid) ?? null, new Set(), files))
  }
  if (bySession.size) {
    const ids = [...bySession.keys()]
    const sessions = await db.selectFrom('signing_sessions').select(['id', 'frozen_document_key', 'current_document_key']).where('id', 'in', ids).execute()
    const requests = await db.selectFrom('signing_session_requests').select(['session_id', 'document_key']).where('session_id', 'in', ids).where('document_key', 'is not', null).execute()
    const referenced = new Map(sessions.map((s) => [s.id, new Set([s.frozen_document_key, s.current_document_key])]))
    for (const r of requests) referenced.get(r.session_id)?.add(r.document_key!)
    const currentOf = new Map(sessions.map((s) => [s.id, s.current_document_key]))
    for (const [id, files] of bySession) {
      const known = referenced.get(id)
      // No session row: everything in its folder is what a crash left of its creation.
      if (!known) { unneeded.push(...files); continue }
      const derived = files.filter((key) => DERIVED_SESSION_FILES.has(key.slice(key.lastIndexOf('/') + 1)))
      unneeded.push(...await notRevisionsOf(disk, currentOf.get(id)!, known, files.filter((key) => !derived.includes(key))))
    }
  }
  return unneeded
}

/** The files that are neither referenced nor an earlier revision (a byte prefix) of `currentKey`. */
async function notRevisionsOf(disk: Pick<Disk, 'get'>, currentKey: string | null, referenced: Set<string>, files: string[]): Promise<string[]> {
  if (currentKey === null) return files
  const rest = files.filter((key) => key !== currentKey && !referenced.has(key))
  if (!rest.length) return []
  const current = await disk.get(currentKey).catch(() => null)
  // The current file cannot be read (a row pointing at nothing is another fault): judge nothing.
  if (!current) return []
  const unneeded: string[] = []
  for (const key of rest) {
    const bytes = await disk.get(key).catch(() => null)
    if (bytes && !(bytes.length < current.length && current.subarray(0, bytes.length).equals(bytes))) unneeded.push(key)
  }
  return unneeded
}

function push(map: Map<string, string[]>, key: string, value: string) {
  const list = map.get(key)
  if (list) list.push(value)
  else map.set(key, [value])
}
