import type { SignableRecord, SignableSource } from '../../plugins/signature/index.ts'

/** The host's signable records, in memory like its users: seeded at every boot, lost at restart. */
export class MemorySignableRecords implements SignableSource<SignableRecord> {
  readonly #byTemplate = new Map<string, Map<string, SignableRecord>>()

  add(templateKey: string, ...records: SignableRecord[]): this {
    let bucket = this.#byTemplate.get(templateKey)
    if (!bucket) this.#byTemplate.set(templateKey, (bucket = new Map()))
    for (const record of records) bucket.set(String(record.id), record)
    return this
  }

  forTemplate(templateKey: string): readonly SignableRecord[] {
    return [...(this.#byTemplate.get(templateKey)?.values() ?? [])]
  }

  find(templateKey: string, id: string): SignableRecord | null {
    return this.#byTemplate.get(templateKey)?.get(id) ?? null
  }
}
