import { placementFor, placementOf, type Placement } from '../contracts/placement.ts'
import type { RegisteredTemplate } from '../contracts/pdf-template.ts'
import type { SavedSlot, TemplateSlotRepository } from '../database/template-slot-repository.ts'
import type { PageImageCache } from '../rasterizer/page-image-cache.ts'
import type { PageSize } from '../rasterizer/page-geometry.ts'
import { pageSizesOf } from '../rendering/page-source.ts'

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
  /** The template's declared placement: where "Reset to default" puts the box. */
  default: Placement
}

export interface DesignerMeta {
  template: { key: string; label: string }
  /** The rasterizer's DPI; informative only, the browser scales from the page sizes in points. */
  dpi: number
  pages: PageSize[]
  slots: DesignerSlot[]
}

/** Every slot of the template: its saved placement, or while none exists its defaults. */
export function designerSlots(template: RegisteredTemplate, saved: readonly SavedSlot[]): DesignerSlot[] {
  const byKey = new Map(saved.map((row) => [row.slotKey, row]))
  return template.slots().map((slot) => {
    const row = byKey.get(slot.key)
    return toDesignerSlot(slot, placementFor(slot, row), Boolean(row))
  })
}

export function toDesignerSlot(slot: { key: string; label: string; required: boolean; placement: Placement }, placement: Placement, saved: boolean): DesignerSlot {
  return { key: slot.key, label: slot.label, required: slot.required, ...placementOf(placement), saved, default: placementOf(slot.placement) }
}

export async function designerMeta(template: RegisteredTemplate, services: { slots: TemplateSlotRepository; pageImages: PageImageCache }): Promise<DesignerMeta> {
  const [pages, saved] = await Promise.all([pageSizesOf({ template }, services.pageImages), services.slots.forTemplate(template.key())])
  return {
    template: { key: template.key(), label: template.label() },
    dpi: services.pageImages.dpi,
    pages,
    slots: designerSlots(template, saved),
  }
}
