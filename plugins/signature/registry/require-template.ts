import type { PdfTemplate } from '../contracts/pdf-template.ts'
import { ERR_TEMPLATE_NOT_FOUND } from '../errors.ts'

/** Anything that finds a template by key without throwing: the registry, or a test's stand-in. */
export interface TemplateFinder<T extends PdfTemplate = PdfTemplate> {
  find(key: string): T | null | undefined
}

/**
 * "Template or 404", the one place it is written: every route and service that takes a template
 * key (from a URL, a body or a stored row) answers an unknown key with the same error.
 */
export function requireTemplate<T extends PdfTemplate>(templates: TemplateFinder<T>, key: string): T {
  const template = templates.find(key)
  if (!template) throw ERR_TEMPLATE_NOT_FOUND(`No PDF template is registered under the key ${JSON.stringify(key)}`)
  return template
}
