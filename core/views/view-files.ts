import path from 'node:path'
import { fileURLToPath } from 'node:url'

const HERE = path.dirname(fileURLToPath(import.meta.url))

/** Absolute paths of the shared view files, for reply.fragment()/reply.page() callers. */
export const VIEW_FILES = {
  flash: path.join(HERE, 'components', 'flash.eta'),
  fieldOptions: path.join(HERE, 'components', 'field-options.eta'),
  error: path.join(HERE, 'pages', 'error.eta'),
  layout: path.join(HERE, 'layout.eta'),
} as const
