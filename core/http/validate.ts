import type { z } from 'zod'
import { ERR_VALIDATION } from './errors.ts'

export interface FieldIssue {
  path: string
  message: string
}

/** Parses input at a boundary; a failure is a 400 naming every offending field, and nothing is written. */
export function parseInput<S extends z.ZodType>(schema: S, value: unknown, where: 'body' | 'query' | 'params' | 'config' | string): z.output<S> {
  const result = schema.safeParse(value)
  if (result.success) return result.data
  const issues: FieldIssue[] = result.error.issues.map((issue) => ({
    path: [where, ...issue.path.map(String)].join('.'),
    message: issue.code === 'unrecognized_keys' ? `unknown field(s): ${(issue as { keys: string[] }).keys.join(', ')}` : issue.message,
  }))
  const message = issues.map((i) => `${i.path}: ${i.message}`).join('; ')
  throw ERR_VALIDATION(message, { details: { issues } })
}
