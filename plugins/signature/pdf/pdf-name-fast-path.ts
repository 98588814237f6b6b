// pdf-lib's PDFName.of() runs a regular expression over every name it is given, to decode #xx
// escapes, before it looks the decoded name up in its pool: 8.8 % of a 100-page signature (bench
// row P4b). Decoding is a function of the text, so the name object can be looked up by the text as
// given: pdf-lib decodes each distinct text once, and escaped names still go through its decoding.
import { createRequire } from 'node:module'

interface PDFNameStatics { of(name: string): unknown }

// The same module instance `import 'pdf-lib'` loads (the package has no "exports"; see decode-budget.ts).
const require = createRequire(import.meta.url)
const PDFName = (require('pdf-lib/cjs/core/objects/PDFName.js') as { default: PDFNameStatics }).default
const decodingOf = PDFName.of.bind(PDFName)
// As long-lived as pdf-lib's own pool, which keeps every name for the life of the thread.
const byText = new Map<string, unknown>()

PDFName.of = function (name: string) {
  let instance = byText.get(name)
  if (instance === undefined) byText.set(name, (instance = decodingOf(name)))
  return instance
}
