// Archive renewal of a document signed in one pass (a record's single signature, /api/sign):
// the same step as a session's (ltv/, ETSI EN 319 142-1 5.5) — a DSS covering the last document
// timestamp's chain and a new document timestamp, appended — written to a new file beside the
// old one, and the row moved to it only while it still points at the old one. The old file stays:
// it is an earlier revision, a byte prefix of the new one.
import { randomBytes } from 'node:crypto'
import type { Disk } from '../../../core/storage/disk.ts'
import type { LongTermValidation } from '../ltv/long-term-validation.ts'
import type { SignatureRepository } from '../library/signature-repository.ts'
import { ERR_CONFLICT, isAppError } from '../../../core/http/errors.ts'
import { sha256Hex } from './sha256-hex.ts'
import type { VisibleSignedDocument } from './signed-document-access.ts'

export interface DocumentRenewal {
  uuid: string
  outcome: 'renewed' | 'not-due' | 'failed'
  /** The last document timestamp's TSA certificate expiry before renewal (null: none yet). */
  expiresAt: string | null
  documentKey?: string
  error?: string
}

interface RenewalDeps {
  signatures: SignatureRepository
  disk: Disk
  ltv: Pick<LongTermValidation, 'extend' | 'needs'>
}

/** Renews one signed copy now; 409 when another renewal moved it first (nothing of this one is kept). */
export async function renewSignedDocument(deps: RenewalDeps, row: VisibleSignedDocument): Promise<{ documentKey: string; sha256: string }> {
  const bytes = await deps.disk.get(row.document_key)
  if (row.document_sha256 && sha256Hex(bytes) !== row.document_sha256) throw new Error(`The stored document of signature ${row.uuid} does not match its SHA-256`)
  const extended = await deps.ltv.extend(bytes)
  const sha256 = sha256Hex(extended.pdf)
  // Beside the first copy (signature-manager.ts's signedDocumentKey), never over it.
  const documentKey = row.document_key.replace(/\.pdf$/, '') + `-renewed-${Date.now()}-${randomBytes(3).toString('hex')}.pdf`
  const staged = await deps.disk.stage(documentKey, extended.pdf)
  const moved = await deps.signatures.moveDocument(row.uuid, row.document_key, { key: documentKey, sha256, document: staged }).catch(async (error: unknown) => {
    await staged.discard().catch(() => {})
    throw error
  })
  if (!moved) {
    await staged.discard().catch(() => {})
    throw ERR_CONFLICT('The document was renewed by another request at the same time')
  }
  return { documentKey, sha256 }
}

/** Every one-pass signed copy whose last document timestamp's TSA certificate expires within `beforeDays` (or that has none). */
export async function renewDueSignedDocuments(deps: RenewalDeps, options: { beforeDays: number; now?: Date }): Promise<DocumentRenewal[]> {
  const horizon = (options.now ?? new Date()).getTime() + options.beforeDays * 24 * 60 * 60 * 1000
  const reports: DocumentRenewal[] = []
  for (const row of await deps.signatures.signedDocuments()) {
    let expiresAt: string | null = null
    try {
      const needs = await deps.ltv.needs(await deps.disk.get(row.document_key!))
      expiresAt = needs.lastDocumentTimestamp?.tsaNotAfter ?? null
      if (expiresAt && new Date(expiresAt).getTime() > horizon) {
        reports.push({ uuid: row.uuid, outcome: 'not-due', expiresAt })
        continue
      }
      const renewed = await renewSignedDocument(deps, row as VisibleSignedDocument)
      reports.push({ uuid: row.uuid, outcome: 'renewed', expiresAt, documentKey: renewed.documentKey })
    } catch (error) {
      // One document's failure (its TSA down) does not stop the others; the next run retries it.
      reports.push({ uuid: row.uuid, outcome: 'failed', expiresAt, error: isAppError(error) ? `${error.code}: ${error.message}` : String(error) })
    }
  }
  return reports
}
