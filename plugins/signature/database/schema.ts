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

export interface SignatureTables {
  digital_pdf_template_slots: TemplateSlotTable
}
