import type { Signable } from '../../plugins/signature/contracts/signable.ts'
import type { SignableSource } from '../../plugins/signature/contracts/signable-source.ts'

type TemplatedRecord = Signable & { readonly signaturePdfTemplate: string }

/** The host's signable records, in memory like its users: seeded at every boot, lost at restart. */
export class MemorySignableRecords implements SignableSource {
  readonly #byTemplate = new Map<string, Map<string, TemplatedRecord>>()

  add(...records: TemplatedRecord[]): this {
    for (const record of records) {
      let bucket = this.#byTemplate.get(record.signaturePdfTemplate)
      if (!bucket) this.#byTemplate.set(record.signaturePdfTemplate, (bucket = new Map()))
      bucket.set(record.getSignableId(), record)
    }
    return this
  }

  forTemplate(templateKey: string): readonly TemplatedRecord[] {
    return [...(this.#byTemplate.get(templateKey)?.values() ?? [])]
  }

  find(templateKey: string, id: string): TemplatedRecord | null {
    return this.#byTemplate.get(templateKey)?.get(id) ?? null
  }
}
