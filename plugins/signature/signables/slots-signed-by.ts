import type { Kysely } from 'kysely'
import type { SignatureTables } from '../database/schema.ts'

/**
 * Slots of one record a user has already signed, through the signer page or a signing session:
 * both write a 'signed' child row for (template, record) with one position per slot.
 */
export async function slotsSignedBy(db: Kysely<SignatureTables>, userId: string, templateKey: string, recordId: string): Promise<string[]> {
  const rows = await db.selectFrom('signature_positions as p')
    .innerJoin('digital_signatures as s', 's.uuid', 'p.signature_uuid')
    .select('p.slot_key').distinct()
    .where('s.user_id', '=', userId).where('s.status', '=', 'signed')
    .where('s.signable_type', '=', templateKey).where('s.signable_id', '=', recordId)
    .where('p.template_key', '=', templateKey).where('p.slot_key', 'is not', null)
    .execute()
  return rows.map((r) => r.slot_key!)
}
