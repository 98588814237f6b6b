import type { LibraryTables } from '../library/library-tables.ts'
import type { SessionTables } from '../sessions/session-tables.ts'

export interface TemplateSlotTable {
  template_key: string
  slot_key: string
  page: number
  x: number
  y: number
  width: number
  height: number
  created_at: string
  updated_at: string
}

/** Every table of the plugin; later parts (sessions) extend this too. */
export interface SignatureTables extends LibraryTables, SessionTables {
  digital_pdf_template_slots: TemplateSlotTable
}
