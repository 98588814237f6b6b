// Appends a document timestamp (PAdES B-LTA, ETSI EN 319 142-1 5.4.3) as one incremental update:
// an invisible signature field whose value is a /Type /DocTimeStamp dictionary with SubFilter
// ETSI.RFC3161, and whose /Contents is an RFC 3161 token over the SHA-256 of the byte ranges.
// Nothing is signed with a key of ours: the TSA's token is the whole value.
import { PDFDict, PDFName, type PDFDocument, type PDFObject, type PDFRef } from 'pdf-lib'
import { appendIncrementalUpdate } from '../pdf/append-incremental-update.ts'
import { createSignatureField } from '../pdf/create-signature-field.ts'
import { uniqueFieldName } from '../pdf/field-names.ts'
import { openForUpdate, type OpenedForUpdate } from '../pdf/open-for-update.ts'
import { pageAt } from '../pdf/page-lookup.ts'
import { pdfLimits } from '../pdf/pdf-limits.ts'
import { byteRangePlaceholder, contentsPlaceholder, insertSignature, prepareSignature, setContentsPlaceholder } from '../pdf/signature-placeholder.ts'
import { requestTimestamp, transportsFor } from '../timestamps/request-timestamp.ts'
import type { TimestampSource } from '../timestamps/timestamp-source.ts'
import { ERR_TIMESTAMP_UNAVAILABLE } from '../timestamps/errors.ts'
import { isAppError } from '../../../core/http/errors.ts'
import { changedSince, snapshot } from '../pdf/changed-objects.ts'

/** Before a source has answered in this thread: a token with a TSA certificate and a short chain. */
const FIRST_TOKEN_ESTIMATE = 8 * 1024
const TOKEN_HEADROOM = 512
/** Largest token seen per source in this thread: the room is sized from it (a bigger one costs one more round). */
const tokenSizes = new Map<string, number>()
export const DOCUMENT_TIMESTAMP_FIELD = 'Document timestamp'

/** `opened`: `pdf` already parsed (openForUpdate, or continueAfter an update just made). */
export async function appendDocumentTimestamp(pdf: Uint8Array, source: TimestampSource, opened?: OpenedForUpdate): Promise<Buffer> {
  const { doc, previous, created } = opened ?? await openForUpdate(pdf)
  const { context } = doc

  const page = pageAt(doc, 1)
  const before = snapshot(context, touchedByNewField(doc, previous.root, page.ref))
  const value = context.obj({ Type: 'DocTimeStamp', Filter: 'Adobe.PPKLite', SubFilter: 'ETSI.RFC3161' }) as PDFDict
  // /Contents must follow /ByteRange: prepareSignature finds it by looking after it.
  value.set(PDFName.of('ByteRange'), byteRangePlaceholder(context))
  value.set(PDFName.of('Contents'), contentsPlaceholder(FIRST_TOKEN_ESTIMATE))
  const signature = context.register(value)
  createSignatureField(doc, { name: uniqueFieldName(doc, DOCUMENT_TIMESTAMP_FIELD), page, value: signature, onPage: false })
  const changed = changedSince(context, before)
  const objects = (): Array<[PDFRef, PDFObject]> => [...changed, ...created()]

  const transports = transportsFor(source)
  const deadline = Date.now() + Math.max(1_000, pdfLimits().taskTimeoutMs - 2_000)
  const sourceKey = source.urls.join(' ')
  const seen = tokenSizes.get(sourceKey)
  let room = seen ? seen + TOKEN_HEADROOM : FIRST_TOKEN_ESTIMATE
  for (let round = 1; ; round++) {
    setContentsPlaceholder(context, signature, room)
    const prepared = prepareSignature(appendIncrementalUpdate(pdf, { objects: objects(), previous, context }))
    const { token } = await requestTimestamp(Buffer.concat(prepared.signedRanges), transports, deadline).catch((error: unknown) => {
      throw isAppError(error) && error.code === ERR_TIMESTAMP_UNAVAILABLE.code
        ? ERR_TIMESTAMP_UNAVAILABLE('No timestamp authority gave a valid timestamp, so the document timestamp was not added and the document is unchanged; try again later', { details: error.details })
        : error
    })
    tokenSizes.set(sourceKey, Math.max(token.length, tokenSizes.get(sourceKey) ?? 0))
    if (token.length <= prepared.capacity) return insertSignature(prepared, token)
    if (round === 2) throw new Error(`The document timestamp (${token.length} bytes) outgrew its room (${prepared.capacity} bytes) twice`)
    room = token.length + TOKEN_HEADROOM
  }
}

/** What adding a field on `page` may change: the catalog (a new /AcroForm), the form, its /Fields, the page and its /Annots. */
function touchedByNewField(doc: PDFDocument, catalog: PDFRef, page: PDFRef): Array<PDFObject | undefined> {
  const acroForm = doc.catalog.get(PDFName.of('AcroForm'))
  const form = doc.catalog.lookupMaybe(PDFName.of('AcroForm'), PDFDict)
  const pageDict = doc.context.lookupMaybe(page, PDFDict)
  return [catalog, acroForm, form?.get(PDFName.of('Fields')), page, pageDict?.get(PDFName.of('Annots'))]
}
