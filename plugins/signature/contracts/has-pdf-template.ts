import type { PdfTemplate } from './pdf-template.ts'
import type { Signable } from './signable.ts'

/** The part of the registry a record needs: trusted keys (declared in code) use get(), which throws. */
export interface TemplateLookup {
  get(key: string): PdfTemplate
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Constructor<T = object> = new (...args: any[]) => T

/**
 * The HasPdfTemplate trait as a mixin: a record class that declares `signaturePdfTemplate` (a
 * template key) and an `id` becomes Signable. Each method may be overridden by the record.
 * The registry is given as a function of the record (e.g. `(r) => r.templates`) because record
 * classes are defined before the app boots, and each app (each test) has its own registry.
 */
export function HasPdfTemplate<TBase extends Constructor<{ id: string | number; signaturePdfTemplate: string }>>(
  Base: TBase,
  templates: TemplateLookup | ((record: InstanceType<TBase>) => TemplateLookup),
) {
  const lookup = (record: InstanceType<TBase>) => (typeof templates === 'function' ? templates(record) : templates)
  return class WithPdfTemplate extends Base implements Signable {
    /** The template this record is an instance of. */
    pdfTemplate(): PdfTemplate {
      return lookup(this as unknown as InstanceType<TBase>).get(this.signaturePdfTemplate)
    }

    getSignableId(): string {
      return String(this.id)
    }

    getSignableTitle(): string {
      return defaultSignableTitle(this.pdfTemplate(), this.getSignableId())
    }

    getSignablePdfPath(): Promise<string> {
      return this.pdfTemplate().renderFor(this)
    }
  }
}

/** The title of a record that gives none: what a person calls the template, and the record's id. */
export function defaultSignableTitle(template: Pick<PdfTemplate, 'label'>, id: string): string {
  return `${template.label()} #${id}`
}
