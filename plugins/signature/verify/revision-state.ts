// What one revision of a document is made of, indexed by object: which objects are pages, page
// content, annotations, form fields and their widgets and appearances, validation data. The
// modification analysis looks a changed object up here to know what the change means.
import { PDFArray, PDFDict, PDFName, PDFPageLeaf, PDFRef, PDFStream, type PDFDocument, type PDFObject } from 'pdf-lib'
import { listFields, type FieldNode } from '../pdf/signature-fields.ts'

export interface RevisionState {
  doc: PDFDocument
  /** This revision's object for a reference (its own table: other revisions may share the context). */
  lookup(ref: PDFRef): PDFObject | undefined
  /** Every object reference this revision has. */
  refs(): PDFRef[]
  catalogRef?: string
  infoRef?: string
  metadataRef?: string
  acroFormRef?: string
  pages: string[]
  pageTreeNodes: Set<string>
  /** Content stream -> 1-based page number. */
  contentStreams: Map<string, number>
  /** Indirect /Annots arrays -> page. */
  annotsArrays: Map<string, number>
  /** Annotation -> page and subtype. */
  annotations: Map<string, { page: number; subtype: string }>
  fields: Map<string, FieldNode>
  widgetOf: Map<string, FieldNode>
  /** Appearance streams of widgets (every /AP entry, one level of state dictionaries) -> field. */
  appearanceOf: Map<string, FieldNode>
  signatureDictionaries: Set<string>
  /** The DSS dictionary and what it holds directly (arrays, VRI, streams). */
  dss: Set<string>
}

const N = (name: string) => PDFName.of(name)

export function revisionState(doc: PDFDocument): RevisionState {
  const { context } = doc
  const root = context.trailerInfo.Root
  const info = context.trailerInfo.Info
  const state: RevisionState = {
    doc,
    lookup: (ref) => context.lookup(ref),
    refs: () => context.enumerateIndirectObjects().map(([ref]) => ref),
    catalogRef: root instanceof PDFRef ? root.toString() : undefined,
    infoRef: info instanceof PDFRef ? info.toString() : undefined,
    metadataRef: refString(doc.catalog.get(N('Metadata'))),
    acroFormRef: refString(doc.catalog.get(N('AcroForm'))),
    pages: [],
    pageTreeNodes: new Set(),
    contentStreams: new Map(),
    annotsArrays: new Map(),
    annotations: new Map(),
    fields: new Map(),
    widgetOf: new Map(),
    appearanceOf: new Map(),
    signatureDictionaries: new Set(),
    dss: new Set(),
  }
  collectPageTree(doc, doc.catalog.get(N('Pages')), state, 0)
  pageLeaves(doc).forEach((page, index) => {
    const number = index + 1
    state.pages.push(page.ref.toString())
    const contents = page.node.get(N('Contents'))
    for (const ref of refsIn(doc, contents)) state.contentStreams.set(ref, number)
    const annots = page.node.get(N('Annots'))
    if (annots instanceof PDFRef) state.annotsArrays.set(annots.toString(), number)
    const array = annots === undefined ? undefined : context.lookup(annots)
    if (array instanceof PDFArray) {
      for (const item of array.asArray()) {
        if (!(item instanceof PDFRef)) continue
        const dict = context.lookup(item)
        const subtype = dict instanceof PDFDict ? dict.lookupMaybe(N('Subtype'), PDFName)?.decodeText() ?? '?' : '?'
        state.annotations.set(item.toString(), { page: number, subtype })
      }
    }
  })
  for (const field of listFields(doc)) {
    state.fields.set(field.ref.toString(), field)
    for (const widget of field.widgets) {
      state.widgetOf.set(widget.ref.toString(), field)
      const ap = widget.dict.lookupMaybe(N('AP'), PDFDict)
      for (const [, value] of ap?.entries() ?? []) {
        if (value instanceof PDFRef) state.appearanceOf.set(value.toString(), field)
        const states = context.lookup(value)
        if (states instanceof PDFDict && !(states instanceof PDFStream)) {
          for (const [, inner] of states.entries()) if (inner instanceof PDFRef) state.appearanceOf.set(inner.toString(), field)
        }
      }
    }
    const value = field.dict.get(N('V'))
    if (field.isSignature && value instanceof PDFRef) state.signatureDictionaries.add(value.toString())
  }
  const dss = doc.catalog.get(N('DSS'))
  if (dss instanceof PDFRef) state.dss.add(dss.toString())
  const dssDict = dss === undefined ? undefined : context.lookup(dss)
  if (dssDict instanceof PDFDict) {
    for (const [, value] of dssDict.entries()) {
      for (const ref of refsIn(doc, value)) state.dss.add(ref)
      if (value instanceof PDFRef) state.dss.add(value.toString())
      const vri = context.lookup(value)
      if (vri instanceof PDFDict) for (const [, entry] of vri.entries()) if (entry instanceof PDFRef) state.dss.add(entry.toString())
    }
  }
  return state
}

/**
 * The pages in order, as doc.getPages() finds them (the same walk of the page tree), without the
 * PDFPage objects it builds for drawing: each revision of each verification walked every page.
 */
function pageLeaves(doc: PDFDocument): Array<{ node: PDFPageLeaf; ref: PDFRef }> {
  const pages: Array<{ node: PDFPageLeaf; ref: PDFRef }> = []
  doc.catalog.Pages().traverse((node, ref) => {
    if (node instanceof PDFPageLeaf) pages.push({ node, ref })
  })
  return pages
}

function collectPageTree(doc: PDFDocument, node: PDFObject | undefined, state: RevisionState, depth: number): void {
  if (!(node instanceof PDFRef) || depth > 64 || state.pageTreeNodes.has(node.toString())) return
  const dict = doc.context.lookup(node)
  if (!(dict instanceof PDFDict) || dict.lookupMaybe(N('Type'), PDFName) !== N('Pages')) return
  state.pageTreeNodes.add(node.toString())
  for (const kid of dict.lookupMaybe(N('Kids'), PDFArray)?.asArray() ?? []) collectPageTree(doc, kid, state, depth + 1)
}

function refString(value: PDFObject | undefined): string | undefined {
  return value instanceof PDFRef ? value.toString() : undefined
}

/** The references an entry holds: itself, or the items of the array it is or points to. */
function refsIn(doc: PDFDocument, value: PDFObject | undefined): string[] {
  if (value === undefined) return []
  const resolved = doc.context.lookup(value)
  if (resolved instanceof PDFArray) return resolved.asArray().filter((v): v is PDFRef => v instanceof PDFRef).map(String)
  return value instanceof PDFRef ? [value.toString()] : []
}
