import type { Placement } from '../contracts/placement.ts'
import type { DocumentTables } from '../documents/documents-tables.ts'
import type { LibraryTables } from '../library/library-tables.ts'
import type { OutboxTables } from '../outbox/outbox-tables.ts'
import type { PkiTables } from '../pki/pki-tables.ts'
import type { SessionTables } from '../sessions/session-tables.ts'

/** A placement's columns are the Placement type's fields. */
export interface TemplateSlotTable extends Placement {
  template_key: string
  slot_key: string
  created_at: string
  updated_at: string
}

/** Every table of the plugin; later parts (sessions) extend this too. */
export interface SignatureTables extends LibraryTables, SessionTables, OutboxTables, PkiTables, DocumentTables {
  digital_pdf_template_slots: TemplateSlotTable
}
