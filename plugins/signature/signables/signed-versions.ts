import type { Kysely } from 'kysely'
import type { SignatureTables } from '../database/schema.ts'
import { isOnePassDocumentKey } from '../signing/signature-manager.ts'

/** One signing of one slot of a record: its version counts the signings of that slot before it, from 1. */
export interface SignedVersion {
  uuid: string
  userId: string
  slot: string
  signedAt: string
  version: number
  /** Why it was signed again; null for version 1. */
  reason: string | null
  /**
   * Signed in a signing session: the signature is one of several in that session's document, whose
   * filled field cannot be filled again (see signables/signer-page-slots.ts).
   */
  inSession: boolean
}

/**
 * Every signing of a record's slots, through the signer page or a session, oldest first. A record
 * shows "signed on ... by ..." from it, and a second signing of a slot is recognised by it.
 */
export async function signedVersionsOf(db: Kysely<SignatureTables>, templateKey: string, recordId: string): Promise<SignedVersion[]> {
  return (await signedVersionsOfRecords(db, templateKey, [recordId])).get(recordId) ?? []
}

/** signedVersionsOf for several records of one template, in one query (a list of records). */
export async function signedVersionsOfRecords(db: Kysely<SignatureTables>, templateKey: string, recordIds: readonly string[]): Promise<Map<string, SignedVersion[]>> {
  const byRecord = new Map<string, SignedVersion[]>()
  if (recordIds.length === 0) return byRecord
  const rows = await db.selectFrom('signature_positions as p')
    .innerJoin('digital_signatures as s', 's.uuid', 'p.signature_uuid')
    .select(['s.uuid', 's.user_id', 's.signable_id', 'p.slot_key', 's.signed_at', 's.resign_reason', 's.document_key'])
    .where('s.status', '=', 'signed')
    .where('s.signable_type', '=', templateKey).where('s.signable_id', 'in', [...recordIds])
    .where('p.template_key', '=', templateKey).where('p.slot_key', 'is not', null)
    .orderBy('s.signed_at').orderBy('s.uuid')
    .execute()
  for (const row of rows) {
    const versions = byRecord.get(row.signable_id!) ?? []
    byRecord.set(row.signable_id!, versions)
    // Several boxes of one slot in one signing are one version.
    if (versions.some((v) => v.uuid === row.uuid && v.slot === row.slot_key)) continue
    const version = versions.filter((v) => v.slot === row.slot_key).length + 1
    versions.push({ uuid: row.uuid, userId: row.user_id, slot: row.slot_key!, signedAt: row.signed_at ?? '', version, reason: row.resign_reason ?? null, inSession: !isOnePassDocumentKey(row.document_key) })
  }
  return byRecord
}

/** The latest signing of each slot, by slot key. */
export function latestBySlot(versions: readonly SignedVersion[]): Map<string, SignedVersion> {
  return new Map(versions.map((v) => [v.slot, v]))
}

/** The slots a user has signed on the record, through the signer page or a session, in signing order. */
export function slotsOf(versions: readonly SignedVersion[], userId: string): string[] {
  return [...new Set(versions.filter((v) => v.userId === userId).map((v) => v.slot))]
}
