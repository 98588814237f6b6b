// Names what one revision changed compared with the one before it, and judges each change
// against the document's certification (DocMDP P). P=2 allows filling a pre-created signature
// field (its /V and its widget's appearance), new signatures, validation data (DSS) and document
// timestamps; P=3 also annotations; P=1 nothing. A new signature field counts as part of a new
// signature only when a signature made in its revision or a later one fills it: unsigned, its
// widget is free to draw anything over the page (the "sneaky signature" overlay). Everything else — page content, new pages,
// annotations drawn over the page, another field's value, an existing object replaced — is
// forbidden. An uncertified document with approval signatures is judged as P=2.
import { PDFArray, PDFDict, PDFName, PDFNumber, PDFRef, PDFStream, type PDFObject } from 'pdf-lib'
import type { FieldNode } from '../pdf/signature-fields.ts'
import type { RevisionState } from './revision-state.ts'
import type { Change } from './verification-report.ts'

export interface ChangeRules {
  /** The certification's P, or undefined when the document is not certified. */
  p: number | undefined
  /** Signature field -> revision of the signature (with a readable byte range) that fills it. */
  signedIn?: ReadonlyMap<string, number>
}

/** Whether a new signature field is signed in the revision that adds it or a later one. */
type SignedLater = (field: FieldNode) => boolean

const N = (name: string) => PDFName.of(name)
const SIGNATURE_FILL_KEYS = new Set(['V', 'AP', 'AS'])
const WIDGET_FILL_KEYS = new Set(['AP', 'AS'])

/** Where a revision's changes are collected; under P=1 every one is forbidden. */
export function changeCollector(revision: number, p: number): { changes: Change[]; add: Add } {
  const changes: Change[] = []
  const add: Add = (object, kind, allowed, why) => {
    // A field merged with its widget is met twice (in /Fields and in /Annots) for one change.
    if (changes.some((c) => c.object === object && c.kind === kind && c.why.startsWith(why))) return
    changes.push(p === 1
      ? { revision, object, kind, allowed: false, why: `${why}; the certification allows no change at all (P=1)` }
      : { revision, object, kind, allowed, why })
  }
  return { changes, add }
}

export function classifyChanges(revision: number, changed: string[], prev: RevisionState, cur: RevisionState, rules: ChangeRules): Change[] {
  const p = rules.p ?? 2
  const { changes, add } = changeCollector(revision, p)
  const lookup = (state: RevisionState, ref: string) => state.lookup(parseRef(ref))
  const signedLater: SignedLater = (field) => (rules.signedIn?.get(field.ref.toString()) ?? 0) >= revision

  for (const ref of changed) {
    const before = lookup(prev, ref)
    const after = lookup(cur, ref)
    const isNew = before === undefined
    if (ref === cur.catalogRef && before instanceof PDFDict && after instanceof PDFDict) {
      catalogChanges(ref, before, after, prev, cur, add, signedLater)
    } else if (prev.pageTreeNodes.has(ref) || (cur.pageTreeNodes.has(ref) && !isNew)) {
      const grew = cur.pages.length > prev.pages.length
      add(ref, grew ? 'new-page' : 'page', false, grew ? `The page tree gains ${cur.pages.length - prev.pages.length} page(s)` : 'The page tree is changed')
    } else if (prev.pages.includes(ref) && before instanceof PDFDict && after instanceof PDFDict) {
      pageChanges(ref, before, after, prev, cur, add, p, signedLater)
    } else if (isNew && cur.pages.includes(ref)) {
      add(ref, 'new-page', false, `Page ${cur.pages.indexOf(ref) + 1} is added`)
    } else if (prev.contentStreams.has(ref)) {
      add(ref, 'page-content', false, `The content of page ${prev.contentStreams.get(ref)} is replaced`)
    } else if (prev.annotsArrays.has(ref)) {
      const page = prev.annotsArrays.get(ref)!
      annotationListChanges(page, arrayRefs(before), arrayRefs(after), prev, cur, add, p, signedLater)
    } else if (prev.fields.has(ref)) {
      fieldChanges(ref, prev.fields.get(ref)!, before, after, add)
    } else if (prev.widgetOf.has(ref)) {
      widgetChanges(ref, prev.widgetOf.get(ref)!, before, after, add)
    } else if (prev.appearanceOf.has(ref)) {
      const field = prev.appearanceOf.get(ref)!
      if (field.isSignature && !field.isSigned) add(ref, 'appearance', true, `The appearance of the pre-created signature field "${field.name}" is drawn`)
      else add(ref, 'appearance', false, `The appearance of ${field.isSigned ? 'the signed field' : 'the field'} "${field.name}" is swapped: what is displayed changes`)
    } else if (prev.annotations.has(ref)) {
      const { page, subtype } = prev.annotations.get(ref)!
      add(ref, 'annotation', p === 3, `The ${subtype} annotation on page ${page} is changed${p === 3 ? ' (P=3 allows annotations)' : ''}`)
    } else if (ref === prev.acroFormRef || ref === cur.acroFormRef) {
      acroFormChanges(ref, asDict(before), asDict(after), prev, cur, add, signedLater)
    } else if (isNew && cur.signatureDictionaries.has(ref)) {
      const timestamp = asDict(after)?.lookupMaybe(N('Type'), PDFName) === N('DocTimeStamp')
      add(ref, timestamp ? 'document-timestamp' : 'signature', true, timestamp ? 'A document timestamp is added' : 'A new signature is added')
    } else if (cur.dss.has(ref)) {
      if (!isNew) add(ref, 'dss', true, 'Validation data (DSS) is updated')
      // The certified revision reserved the catalog's /DSS reference; the DSS fills it as a new object.
      else if (cur.catalogRef && asDict(lookup(cur, cur.catalogRef))?.get(N('DSS'))?.toString() === ref) add(ref, 'dss', true, 'Validation data (DSS) is added where the catalog reserved it')
    } else if (ref === cur.infoRef || ref === prev.infoRef || ref === cur.metadataRef || ref === prev.metadataRef) {
      add(ref, 'metadata', true, 'Document information (metadata) is changed; it is not displayed content')
    } else if (!isNew) {
      add(ref, 'replaced-object', false, `An object the signed revision already had (${describe(before)}) is replaced`)
    }
    // A new object nothing above names is judged where it is used: a changed page, field or catalog.
  }
  return changes
}

export type Add = (object: string, kind: string, allowed: boolean, why: string) => void

function catalogChanges(ref: string, before: PDFDict, after: PDFDict, prev: RevisionState, cur: RevisionState, add: Add, signedLater: SignedLater): void {
  for (const key of changedKeys(before, after)) {
    if (key === 'DSS') add(ref, 'dss', true, 'Validation data (DSS: certificates, OCSP responses, CRLs) is added')
    else if (key === 'AcroForm') acroFormChanges(ref, asDict(resolve(prev, before.get(N(key)))), asDict(resolve(cur, after.get(N(key)))), prev, cur, add, signedLater)
    else if (key === 'Metadata' || key === 'Extensions') add(ref, 'metadata', true, `The catalog's /${key} is changed; it is not displayed content`)
    else if (key === 'Perms') add(ref, 'certification', false, 'The certification (/Perms) is changed')
    else if (key === 'Pages') add(ref, 'new-page', false, 'The page tree is replaced')
    else add(ref, 'catalog', false, `The document catalog's /${key} is changed`)
  }
}

function acroFormChanges(ref: string, before: PDFDict | undefined, after: PDFDict | undefined, prev: RevisionState, cur: RevisionState, add: Add, signedLater: SignedLater): void {
  if (!after) { add(ref, 'field', false, 'The form is removed'); return }
  const keys = before ? changedKeys(before, after) : after.keys().map((k) => k.decodeText())
  for (const key of keys) {
    if (key === 'Fields') {
      const old = new Set(before ? arrayRefs(resolve(prev, before.get(N('Fields')))) : [])
      const now = arrayRefs(resolve(cur, after.get(N('Fields'))))
      for (const removed of [...old].filter((r) => !now.includes(r))) add(removed, 'field', false, `The field "${prev.fields.get(removed)?.name ?? removed}" is removed`)
      for (const added of now.filter((r) => !old.has(r))) {
        const fields = [...cur.fields.values()].filter((f) => f.ref.toString() === added || f.name.startsWith(`${nameOf(cur, added)}.`))
        const unsigned = fields.find((f) => !signedLater(f))
        if (fields.length > 0 && fields.every((f) => f.isSignature) && !unsigned) add(added, 'signature-field', true, `A signature field "${fields.map((f) => f.name).join('", "')}" is added for a new signature`)
        else if (fields.length > 0 && fields.every((f) => f.isSignature)) add(added, 'signature-field', false, unsignedFieldWhy(unsigned!, cur))
        else add(added, 'field', false, `A form field "${fields.map((f) => f.name).join('", "') || added}" is added`)
      }
    } else if (key === 'SigFlags' || key === 'DR' || key === 'DA') {
      add(ref, 'form', true, `The form's /${key} is updated`)
    } else {
      add(ref, 'form', false, `The form's /${key} is changed`)
    }
  }
}

function pageChanges(ref: string, before: PDFDict, after: PDFDict, prev: RevisionState, cur: RevisionState, add: Add, p: number, signedLater: SignedLater): void {
  const page = prev.pages.indexOf(ref) + 1
  for (const key of changedKeys(before, after)) {
    if (key === 'Annots') {
      annotationListChanges(page, arrayRefs(resolve(prev, before.get(N('Annots')))), arrayRefs(resolve(cur, after.get(N('Annots')))), prev, cur, add, p, signedLater)
    } else if (key === 'Contents' || key === 'Resources') {
      add(ref, 'page-content', false, `Page ${page}'s /${key} is changed: what the page displays changes`)
    } else {
      add(ref, 'page', false, `Page ${page}'s /${key} is changed`)
    }
  }
}

function annotationListChanges(page: number, before: string[], after: string[], prev: RevisionState, cur: RevisionState, add: Add, p: number, signedLater: SignedLater): void {
  for (const removed of before.filter((r) => !after.includes(r))) {
    const widget = prev.widgetOf.get(removed)
    add(removed, 'annotation', p === 3 && !widget, `${widget ? `The widget of field "${widget.name}"` : 'An annotation'} is removed from page ${page}`)
  }
  for (const added of after.filter((r) => !before.includes(r))) {
    const field = cur.widgetOf.get(added)
    if (field?.isSignature && !prev.fields.has(field.ref.toString())) {
      if (signedLater(field)) add(added, 'signature-field', true, `The widget of the new signature field "${field.name}" is placed on page ${page}`)
      else add(added, 'signature-field', false, unsignedFieldWhy(field, cur))
    } else if (field) {
      add(added, 'field', false, `A widget of field "${field.name}" is added on page ${page}`)
    } else {
      const subtype = cur.annotations.get(added)?.subtype ?? '?'
      add(added, 'annotation', p === 3, p === 3
        ? `A ${subtype} annotation is added on page ${page} (P=3 allows annotations)`
        : `A ${subtype} annotation is added on page ${page}: it draws over the signed content (hidden overlay)`)
    }
  }
}

function fieldChanges(ref: string, field: FieldNode, before: PDFObject | undefined, after: PDFObject | undefined, add: Add): void {
  const keys = changedKeys(asDict(before), asDict(after))
  if (keys.length === 0) return
  if (field.isSignature && !field.isSigned && keys.every((k) => SIGNATURE_FILL_KEYS.has(k))) {
    add(ref, 'field-value', true, `The pre-created signature field "${field.name}" is signed`)
  } else if (keys.includes('V')) {
    add(ref, 'field-value', false, field.isSigned ? `The value of the signed field "${field.name}" is replaced` : `The value of the field "${field.name}" is changed`)
  } else if (keys.includes('AP')) {
    add(ref, 'appearance', false, `The appearance of the field "${field.name}" is swapped: what is displayed changes`)
  } else {
    add(ref, 'field', false, `The field "${field.name}" is changed (/${keys.join(', /')})`)
  }
}

function widgetChanges(ref: string, field: FieldNode, before: PDFObject | undefined, after: PDFObject | undefined, add: Add): void {
  const keys = changedKeys(asDict(before), asDict(after))
  if (keys.length === 0) return
  if (field.isSignature && !field.isSigned && keys.every((k) => WIDGET_FILL_KEYS.has(k))) {
    add(ref, 'appearance', true, `The stamp of the pre-created signature field "${field.name}" is drawn in its widget`)
  } else if (keys.includes('AP')) {
    add(ref, 'appearance', false, `The appearance of the field "${field.name}" is swapped: what is displayed changes`)
  } else {
    add(ref, 'field', false, `The widget of the field "${field.name}" is changed (/${keys.join(', /')})`)
  }
}

/** Why an unsigned new signature field is refused; an overlay when its widget draws something on a page. */
function unsignedFieldWhy(field: FieldNode, cur: RevisionState): string {
  const drawn = field.widgets.find((w) => drawsSomething(w.dict) && cur.annotations.has(w.ref.toString()))
  if (!drawn) return `A new signature field "${field.name}" is added and never signed: a signature field may be added only by signing it`
  const page = cur.annotations.get(drawn.ref.toString())!.page
  return `A new signature field "${field.name}" is added on page ${page} and never signed; its widget draws over page ${page}: an overlay, not a signature`
}

/** A widget a viewer draws: an appearance, a rectangle with an area, and neither Hidden (2) nor NoView (32) set. */
function drawsSomething(widget: PDFDict): boolean {
  const flags = widget.lookupMaybe(N('F'), PDFNumber)?.asNumber() ?? 0
  const rect = widget.lookupMaybe(N('Rect'), PDFArray)?.asArray().map((n) => (n instanceof PDFNumber ? n.asNumber() : 0)) ?? []
  const area = rect.length === 4 ? Math.abs((rect[2]! - rect[0]!) * (rect[3]! - rect[1]!)) : 0
  return widget.lookupMaybe(N('AP'), PDFDict)?.get(N('N')) !== undefined && area > 0 && (flags & (2 | 32)) === 0
}

function changedKeys(before: PDFDict | undefined, after: PDFDict | undefined): string[] {
  const keys = new Set([...(before?.keys() ?? []), ...(after?.keys() ?? [])].map((k) => k.decodeText()))
  return [...keys].filter((key) => before?.get(N(key))?.toString() !== after?.get(N(key))?.toString())
}

function asDict(value: PDFObject | undefined): PDFDict | undefined {
  if (value instanceof PDFStream) return value.dict
  return value instanceof PDFDict ? value : undefined
}

function arrayRefs(value: PDFObject | undefined): string[] {
  return value instanceof PDFArray ? value.asArray().filter((v): v is PDFRef => v instanceof PDFRef).map(String) : []
}

function nameOf(state: RevisionState, ref: string): string {
  return state.fields.get(ref)?.name ?? ''
}

export function describe(value: PDFObject | undefined): string {
  const dict = asDict(value)
  const type = dict?.lookupMaybe(N('Type'), PDFName)?.decodeText()
  const subtype = dict?.lookupMaybe(N('Subtype'), PDFName)?.decodeText()
  return [type, subtype].filter(Boolean).join(' ') || (value instanceof PDFStream ? 'a stream' : 'an object')
}

/** An entry's value, through a reference resolved in that revision's own table. */
function resolve(state: RevisionState, value: PDFObject | undefined): PDFObject | undefined {
  return value instanceof PDFRef ? state.lookup(value) : value
}

export function parseRef(ref: string): PDFRef {
  const [number, generation] = ref.split(' ')
  return PDFRef.of(Number(number), Number(generation))
}
