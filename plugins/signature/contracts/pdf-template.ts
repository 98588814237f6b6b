import type { SlotDefinition } from './slot-definition.ts'
import type { PdfRendererClass } from './pdf-renderer.ts'

/** A kind of PDF (daily time record, payslip, contract) and the slots on it that accept a signature. */
export interface PdfTemplate {
  /** Unique, `[a-z0-9][a-z0-9._-]*`: it appears in URLs, file names and database rows. */
  key(): string
  label(): string
  slots(): readonly SlotDefinition[]
  /**
   * Absolute path of a sample PDF. Deterministic: the same inputs give the same path and the same
   * bytes, so page images rendered from it can be cached by (path, mtime, dpi, page).
   */
  renderSample(): Promise<string>
  /** Absolute path of the production PDF for a record; the contract of Signable.getSignablePdfPath(). */
  renderFor(record: unknown): Promise<string>
  /**
   * Optional: the renderer this template needs, so lists can show it as unavailable instead of
   * failing later. Absent means the template needs nothing that may be missing.
   */
  renderer?(): PdfRendererClass
}

/** What a template class is given when the registry instantiates it. */
export interface TemplateContext {
  /** Writes files under the signature storage disk; see core/storage. */
  readonly disk: import('../../../core/storage/disk.ts').Disk
  /** The one shared instance of a renderer class (one Chromium for the whole app). */
  renderer(type?: PdfRendererClass): import('./pdf-renderer.ts').PdfRenderer
}

export interface PdfTemplateClass {
  new (context: TemplateContext): PdfTemplate
}

export function isPdfTemplate(value: unknown): value is PdfTemplate {
  const v = value as Partial<PdfTemplate> | null
  return typeof v === 'object' && v !== null && typeof v.key === 'function' && typeof v.label === 'function'
    && typeof v.slots === 'function' && typeof v.renderSample === 'function' && typeof v.renderFor === 'function'
}
