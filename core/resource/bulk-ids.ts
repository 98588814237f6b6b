import { z } from 'zod'
import { parseInput } from '../http/validate.ts'

/** At most one page of the largest per-page choice. */
export const MAX_BULK_IDS = 100

// A form sends one `ids` per chosen row: one value is a string, several an array.
const schema = z.object({
  ids: z.union([z.string(), z.array(z.string())])
    .transform((ids) => [...new Set(Array.isArray(ids) ? ids : [ids])])
    .pipe(z.array(z.string().min(1).max(128)).min(1, 'choose at least one').max(MAX_BULK_IDS, `at most ${MAX_BULK_IDS}`)),
}).strict()

/** The chosen ids of a bulk action, each once; a missing, empty or oversized list is ERR_VALIDATION (400). */
export function bulkIdsFrom(input: unknown, where: 'body' | 'query'): string[] {
  return parseInput(schema, input ?? {}, where).ids
}
