import type { SlotDefinition } from './slot-definition.ts'
import type { PdfRendererClass } from './pdf-renderer.ts'
import type { SlotInput } from './slot-input.ts'

/** A kind of PDF (daily time record, payslip, contract) and the slots on it that accept a signature. */
export interface PdfTemplate {
  /** Unique, `[a-z0-9][a-z0-9._-]*`: it appears in URLs, file names and database rows. */
  key(): string
  label(): string
  /**
   * Slot.make() builders, or the literals config uses (SlotDefinitions are accepted too). The
   * registry normalizes them once, when the template is registered: a bad slot stops the boot.
   */
  slots(): SlotInput
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

/**
 * A template as the registry hands it out: the same instance, its slots() now answering the
 * normalized list, so everything that reads slots reads one shape.
 */
export interface RegisteredTemplate extends PdfTemplate {
  slots(): readonly SlotDefinition[]
}

/** What a template class is given when the registry instantiates it. */
export interface TemplateContext {
  /** Writes files under the signature storage disk; see core/storage. */
  readonly disk: import('../../../core/storage/disk.ts').Disk
  /** The one shared instance of a renderer class (one Chromium for the whole app). */
  renderer(type?: PdfRendererClass): import('./pdf-renderer.ts').PdfRenderer
  /**
   * Disk key of a sample: a digest of everything that shapes its bytes (`inputs`), so unchanged
   * inputs keep the same file, and its page images stay cached, while changed inputs get a new one.
   */
  sampleFile(templateKey: string, inputs: unknown[]): string
  /** Disk key of a record's production PDF, named after the record's id (its data's digest without one). */
  documentFile(templateKey: string, record: unknown, data: unknown): string
}

export interface PdfTemplateClass {
  new (context: TemplateContext): PdfTemplate
}

export function isPdfTemplate(value: unknown): value is PdfTemplate {
  const v = value as Partial<PdfTemplate> | null
  return typeof v === 'object' && v !== null && typeof v.key === 'function' && typeof v.label === 'function'
    && typeof v.slots === 'function' && typeof v.renderSample === 'function' && typeof v.renderFor === 'function'
}
