import type { Signable } from './signable.ts'

/**
 * A record as plain data: its id and its fields (what the template's view and the slots'
 * signatories read), optionally a title. The plugin makes it Signable (signables/signable-records.ts):
 * the title defaults to "<template label> #<id>", the PDF is the template's renderFor(record).
 */
export interface SignableRecord {
  readonly id: string | number
  readonly title?: string
}

/**
 * Where the host keeps the records of a template (in memory, a database...): the plugin only lists
 * them. R is what the plugin works with, Signable; a host's source may hand out plain records
 * (`SignableSource<SignableRecord>`) or Signables, mixed.
 */
export interface SignableSource<R = Signable> {
  forTemplate(templateKey: string): Promise<readonly R[]> | readonly R[]
  find(templateKey: string, id: string): Promise<R | null> | R | null
}

/** What a host may register: records as plain data, Signables, or both. */
export type RecordSource = SignableSource<SignableRecord | Signable>
