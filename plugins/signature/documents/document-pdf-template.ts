import type { PdfTemplate } from '../contracts/pdf-template.ts'
import { SlotDefinition } from '../contracts/slot-definition.ts'
import type { Disk } from '../../../core/storage/disk.ts'
import type { DocumentTemplateTable } from './documents-tables.ts'

export type TemplateFieldType = 'signature' | 'date' | 'name' | 'initials' | 'text'

/** One field of a saved document template: `signer` indexes its roles, as in a document session's body. */
export interface TemplateField {
  signer: number
  type: TemplateFieldType
  page: number
  x: number
  y: number
  width: number
  height: number
  label?: string
}

/**
 * An uploaded document saved with its fields (issue 38, item 6), registered at runtime: its sample
 * and every record's PDF are the uploaded file itself; one slot per signer role (`signer-1`, ...),
 * in signing order, placed on that role's first signature field.
 */
export class DocumentPdfTemplate implements PdfTemplate {
  readonly documentId: string
  readonly roles: readonly string[]
  readonly fields: readonly TemplateField[]
  readonly #key: string
  readonly #label: string
  readonly #documentKey: string
  readonly #disk: Disk

  constructor(row: DocumentTemplateTable, documentKey: string, disk: Disk) {
    this.#key = row.key
    this.#label = row.label
    this.#documentKey = documentKey
    this.#disk = disk
    this.documentId = row.document_id
    this.roles = Object.freeze(JSON.parse(row.roles) as string[])
    this.fields = Object.freeze(JSON.parse(row.fields) as TemplateField[])
  }

  key(): string { return this.#key }
  label(): string { return this.#label }

  slots(): readonly SlotDefinition[] {
    return this.roles.map((role, index) => {
      const first = this.fields.find((f) => f.signer === index && f.type === 'signature')!
      return new SlotDefinition({
        key: `signer-${index + 1}`, label: role, role, order: index + 1, required: true,
        defaultPage: first.page, defaultX: first.x, defaultY: first.y, defaultWidth: first.width, defaultHeight: first.height,
      })
    })
  }

  renderSample(): Promise<string> {
    return this.#disk.localPath(this.#documentKey)
  }

  renderFor(): Promise<string> {
    return this.#disk.localPath(this.#documentKey)
  }
}

export function isDocumentPdfTemplate(value: unknown): value is DocumentPdfTemplate {
  return value instanceof DocumentPdfTemplate
}
