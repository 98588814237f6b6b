// The trailer's /ID (PDF 32000-1, 14.4): two byte strings, the first the document's permanent
// identifier, the second this version's. Readers and validators use them to tell documents and
// revisions apart, so every file the engine writes has one: the first kept from the file it
// came from (a new one when it had none), the second new each time.
import { randomBytes } from 'node:crypto'
import { PDFArray, PDFHexString, type PDFContext, type PDFObject } from 'pdf-lib'

export function nextFileIdentifier(context: PDFContext, previous: PDFObject | undefined): PDFArray {
  const permanent = previous instanceof PDFArray && previous.size() === 2 && previous.get(0) instanceof PDFHexString
    ? previous.get(0)
    : PDFHexString.of(randomBytes(16).toString('hex'))
  return context.obj([permanent, PDFHexString.of(randomBytes(16).toString('hex'))])
}
