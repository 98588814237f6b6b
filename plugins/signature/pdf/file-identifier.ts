// The trailer's /ID (PDF 32000-1, 14.4): two byte strings, the first the document's permanent
// identifier, the second this version's. Readers and validators use them to tell documents and
// revisions apart, so every file the engine writes has one: the first kept from the file it
// came from, the second new for each version. Both are derived from what makes the version
// (a hash, not randomness), so the same input signed the same way gives the same bytes: two
// instances making one session's certificate of completion at once still agree.
import { createHash } from 'node:crypto'
import { PDFArray, PDFHexString, type PDFContext, type PDFObject } from 'pdf-lib'

export function nextFileIdentifier(context: PDFContext, previous: PDFObject | undefined, versionSeed: Buffer): PDFArray {
  const derive = (label: string) => PDFHexString.of(createHash('sha256').update(label).update(versionSeed).digest().subarray(0, 16).toString('hex'))
  const permanent = previous instanceof PDFArray && previous.size() === 2 && previous.get(0) instanceof PDFHexString
    ? previous.get(0)
    : derive('permanent')
  return context.obj([permanent, derive('version')])
}
