import type { PdfTemplateRegistry } from '../registry/pdf-template-registry.ts'

export interface TemplateListRow {
  key: string
  label: string
  slotCount: number
  origin: string
  available: boolean
  /** What to install when the renderer is unavailable. */
  requirement: string | null
  sampleUrl: string
  /** The placement designer arrives with the next issue; null until its route exists. */
  designerUrl: string | null
}

/** The admin list as data: the page renders it, tests read it without HTML. */
export function templateList(registry: PdfTemplateRegistry, urls: { sample(key: string): string; designer(key: string): string | null }): TemplateListRow[] {
  return [...registry.all().values()].map((template) => {
    const available = registry.isAvailable(template)
    return {
      key: template.key(),
      label: template.label(),
      slotCount: template.slots().length,
      origin: registry.origin(template.key()) ?? 'runtime',
      available,
      requirement: available ? null : (template.renderer?.().requirement ?? 'its renderer is not available'),
      sampleUrl: urls.sample(template.key()),
      designerUrl: urls.designer(template.key()),
    }
  })
}
