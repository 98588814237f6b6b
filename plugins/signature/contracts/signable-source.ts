import type { Signable } from './signable.ts'

/** Where the host keeps the records of a template (in memory, a database...): the plugin only lists them. */
export interface SignableSource {
  forTemplate(templateKey: string): Promise<readonly Signable[]> | readonly Signable[]
  find(templateKey: string, id: string): Promise<Signable | null> | Signable | null
}
