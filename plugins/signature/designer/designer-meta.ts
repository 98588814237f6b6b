import type { PdfTemplate } from '../contracts/pdf-template.ts'
import type { SavedSlot, TemplateSlotRepository } from '../database/template-slot-repository.ts'
import type { PageImageCache } from '../rasterizer/page-image-cache.ts'
import type { PageSize } from '../rasterizer/page-geometry.ts'
import { pageSizesOf } from './page-source.ts'

export interface DesignerSlot {
  key: string
  label: string
  required: boolean
  /** PDF points, y from the bottom of the page. */
  page: number
  x: number
  y: number
  width: number
  height: number
  /** false while the slot still sits at its definition's defaults (no row saved). */
  saved: boolean
}

export interface DesignerMeta {
  template: { key: string; label: string }
  /** The rasterizer's DPI; informative only, the browser scales from the page sizes in points. */
  dpi: number
  pages: PageSize[]
  slots: DesignerSlot[]
}

/** Every slot of the template: its saved placement, or while none exists its defaults. */
export function designerSlots(template: PdfTemplate, saved: readonly SavedSlot[]): DesignerSlot[] {
  const byKey = new Map(saved.map((row) => [row.slotKey, row]))
  return template.slots().map((slot) => {
    const row = byKey.get(slot.key)
    return row
      ? toDesignerSlot(slot, row, true)
      : { key: slot.key, label: slot.label, required: slot.required, page: slot.defaultPage, x: slot.defaultX, y: slot.defaultY, width: slot.defaultWidth, height: slot.defaultHeight, saved: false }
  })
}

export function toDesignerSlot(slot: { key: string; label: string; required: boolean }, row: Pick<SavedSlot, 'page' | 'x' | 'y' | 'width' | 'height'>, saved: boolean): DesignerSlot {
  return { key: slot.key, label: slot.label, required: slot.required, page: row.page, x: row.x, y: row.y, width: row.width, height: row.height, saved }
}

export async function designerMeta(template: PdfTemplate, services: { slots: TemplateSlotRepository; pageImages: PageImageCache }): Promise<DesignerMeta> {
  const [pages, saved] = await Promise.all([pageSizesOf({ template }, services.pageImages), services.slots.forTemplate(template.key())])
  return {
    template: { key: template.key(), label: template.label() },
    dpi: services.pageImages.dpi,
    pages,
    slots: designerSlots(template, saved),
  }
}
