import type { Kysely } from 'kysely'
import type { Placement } from '../contracts/placement.ts'
import type { SignatureTables } from './schema.ts'

/** A saved placement of a slot on a template. */
export interface SavedSlot extends Placement {
  templateKey: string
  slotKey: string
  createdAt: string
  updatedAt: string
}

/** Placements are per template, not per record: placed once, reused by every record. */
export class TemplateSlotRepository {
  constructor(private readonly db: Kysely<SignatureTables>, private readonly now: () => Date = () => new Date()) {}

  /** Insert or update by (template_key, slot_key) in one statement, so two saves cannot race into two rows. */
  async upsert(templateKey: string, slotKey: string, placement: Placement): Promise<SavedSlot> {
    const at = this.now().toISOString()
    const values = { page: placement.page, x: placement.x, y: placement.y, width: placement.width, height: placement.height }
    await this.db
      .insertInto('digital_pdf_template_slots')
      .values({ template_key: templateKey, slot_key: slotKey, ...values, created_at: at, updated_at: at })
      .onConflict((oc) => oc.columns(['template_key', 'slot_key']).doUpdateSet({ ...values, updated_at: at }))
      .execute()
    const saved = await this.find(templateKey, slotKey)
    if (!saved) throw new Error(`upsert of ${templateKey}/${slotKey} left no row`)
    return saved
  }

  async find(templateKey: string, slotKey: string): Promise<SavedSlot | null> {
    const row = await this.db.selectFrom('digital_pdf_template_slots').selectAll()
      .where('template_key', '=', templateKey).where('slot_key', '=', slotKey).executeTakeFirst()
    return row ? toSavedSlot(row) : null
  }

  async forTemplate(templateKey: string): Promise<SavedSlot[]> {
    const rows = await this.db.selectFrom('digital_pdf_template_slots').selectAll()
      .where('template_key', '=', templateKey).orderBy('slot_key').execute()
    return rows.map(toSavedSlot)
  }
}

function toSavedSlot(row: { template_key: string; slot_key: string; page: number; x: number; y: number; width: number; height: number; created_at: string; updated_at: string }): SavedSlot {
  // pg returns double precision as number already; Number() guards drivers that return strings.
  return {
    templateKey: row.template_key,
    slotKey: row.slot_key,
    page: Number(row.page),
    x: Number(row.x),
    y: Number(row.y),
    width: Number(row.width),
    height: Number(row.height),
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  }
}
