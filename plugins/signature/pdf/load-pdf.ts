// The one place a PDF from outside is parsed, so every caller refuses bad input the same way.
import { ParseSpeeds, PDFDocument, PDFParser, type PDFContext } from 'pdf-lib'
import { isAppError } from '../../../core/http/errors.ts'
import { checkDocumentStructure } from './check-document-structure.ts'
import { withDecodeBudget } from './decode-budget.ts'
import './pdf-name-fast-path.ts'
import { ERR_PDF_ENCRYPTED, ERR_PDF_INVALID } from './errors.ts'
import { pdfLimits } from './pdf-limits.ts'

export interface LoadPdfOptions {
  /** pdf-lib rewrites /Producer and /ModDate on load unless told not to; readers of a signed file must not. */
  updateMetadata?: boolean
  /**
   * Called after each section the parser reads (objects, cross-reference, trailer, %%EOF: one per
   * revision of a well-formed file), with the parser's one context and where it stands: the
   * verifier keeps each revision's object table from this one parse (revision-snapshots.ts).
   */
  onSection?: (context: PDFContext, offset: number) => void
}

interface ParserInternals {
  context: PDFContext
  bytes: { offset(): number }
  parseDocumentSection(): Promise<void>
}

// PDFDocument's constructor is private in the typings only: PDFDocument.load is this parser and this
// constructor (ignoreEncryption false), which is what lets the parse above report its sections.
const Document = PDFDocument as unknown as new (context: PDFContext, ignoreEncryption: boolean, updateMetadata: boolean) => PDFDocument

export async function loadPdf(bytes: Uint8Array, options: LoadPdfOptions = {}): Promise<PDFDocument> {
  if (!looksLikePdf(bytes)) throw ERR_PDF_INVALID('The file does not start with a PDF header (%PDF-)')
  let doc: PDFDocument
  try {
    // ParseSpeeds.Fastest (Infinity): no setTimeout(0) every 100 objects. The server only parses
    // here inside the PDF worker pool (pdf-worker-tasks.ts: normalizePdf, signDocument,
    // freezeDocument, signField, inspectPdf; no route imports this module), where yielding to an
    // event loop with nothing else on it only costs time. Tests and scripts that call it on the
    // main thread simply do not yield during a parse.
    doc = await withDecodeBudget(pdfLimits().maxDecodedBytes, async () => {
      const parser = PDFParser.forBytesWithOptions(bytes, ParseSpeeds.Fastest)
      const { onSection } = options
      if (onSection) {
        const internals = parser as unknown as ParserInternals
        const section = internals.parseDocumentSection.bind(parser)
        internals.parseDocumentSection = async () => {
          await section()
          onSection(internals.context, internals.bytes.offset())
        }
      }
      return new Document(await parser.parseDocument(), false, options.updateMetadata ?? false)
    })
  } catch (cause) {
    if (isAppError(cause)) throw cause
    if (isEncryptionError(cause)) throw ERR_PDF_ENCRYPTED(undefined, { cause })
    throw ERR_PDF_INVALID(`The PDF cannot be parsed: ${cause instanceof Error ? cause.message : String(cause)}`, { cause })
  }
  // pdf-lib is lenient and can "load" a truncated file as an empty document.
  let pageCount: number
  try {
    pageCount = doc.getPageCount()
  } catch (cause) {
    throw ERR_PDF_INVALID('The PDF page tree is broken', { cause })
  }
  if (pageCount === 0) throw ERR_PDF_INVALID('The PDF has no pages')
  try {
    checkDocumentStructure(doc)
  } catch (cause) {
    // A page tree with a cycle overflows the stack while pdf-lib walks it.
    throw isAppError(cause) ? cause : ERR_PDF_INVALID('The PDF page tree is broken', { cause })
  }
  return doc
}

function looksLikePdf(bytes: Uint8Array): boolean {
  // The header may follow up to 1024 bytes of junk (PDF 32000-1, annex H.3 note 13).
  return Buffer.from(bytes.buffer, bytes.byteOffset, Math.min(bytes.length, 1024)).includes('%PDF-', 0, 'latin1')
}

function isEncryptionError(error: unknown): boolean {
  // pdf-lib is compiled to ES5, where subclasses of Error lose their prototype, so
  // `instanceof EncryptedPDFError` is false; its message is the only reliable mark.
  return error instanceof Error && /is encrypted/.test(error.message)
}
