// Judges the objects a revision marks free (freed-objects.ts finds them). A reader turns every
// reference to a freed object into null, so freeing is a change like any other. A freed page
// content stream is never allowed, nor is any object the document still refers to (what is
// displayed or signed changes). An object nothing refers to any more may be freed — the update
// that stopped referring to it (a page's /Contents, a widget's /AP, a field's /V) is judged on its
// own — except under P=1, which allows no change at all.
import { PDFArray, PDFDict, PDFRef, PDFStream, type PDFObject } from 'pdf-lib'
import { changeCollector, describe, parseRef, type ChangeRules } from './classify-changes.ts'
import type { RevisionState } from './revision-state.ts'
import type { Change } from './verification-report.ts'

export function classifyFreedObjects(revision: number, freed: string[], prev: RevisionState, cur: RevisionState, rules: ChangeRules): Change[] {
  const { changes, add } = changeCollector(revision, rules.p ?? 2)
  if (freed.length === 0) return changes
  const used = referencedObjects(cur, new Set(freed))
  for (const ref of freed) {
    const role = roleIn(prev, ref)
    const what = role ? `${role} (${ref})` : `Object ${ref} (${describe(prev.lookup(parseRef(ref)))})`
    if (prev.contentStreams.has(ref)) {
      add(ref, 'freed-object', false, `${what} is deleted by a later update (marked free): viewers stop showing it, so what the page displays changes`)
    } else if (used.has(ref)) {
      add(ref, 'freed-object', false, `${what} is deleted by a later update (marked free) while the document still uses it: viewers read it as nothing, so what is displayed changes`)
    } else {
      add(ref, 'freed-object', true, `${what}, which nothing uses any more, is deleted (marked free)`)
    }
  }
  return changes
}

/** What the object was in the signed revision, when it is part of what is displayed or signed. */
function roleIn(prev: RevisionState, ref: string): string | undefined {
  if (prev.contentStreams.has(ref)) return `The content of page ${prev.contentStreams.get(ref)}`
  if (prev.pages.includes(ref)) return `Page ${prev.pages.indexOf(ref) + 1}`
  if (prev.pageTreeNodes.has(ref)) return 'A node of the page tree'
  if (prev.widgetOf.has(ref)) return `The widget of the field "${prev.widgetOf.get(ref)!.name}"`
  if (prev.fields.has(ref)) return `The field "${prev.fields.get(ref)!.name}"`
  if (prev.appearanceOf.has(ref)) return `The appearance of the field "${prev.appearanceOf.get(ref)!.name}"`
  if (prev.annotations.has(ref)) return `The ${prev.annotations.get(ref)!.subtype} annotation on page ${prev.annotations.get(ref)!.page}`
  if (prev.annotsArrays.has(ref)) return `The annotation list of page ${prev.annotsArrays.get(ref)}`
  if (prev.signatureDictionaries.has(ref)) return 'A signature'
  if (ref === prev.catalogRef) return 'The document catalog'
  if (ref === prev.acroFormRef) return 'The form'
  return undefined
}

/** Every object some object of the revision (other than the freed ones) or its trailer refers to. */
function referencedObjects(state: RevisionState, skip: Set<string>): Set<string> {
  const used = new Set([state.catalogRef, state.infoRef].filter((r): r is string => !!r))
  const visit = (value: PDFObject | undefined, depth: number) => {
    if (value === undefined || depth > 32) return
    if (value instanceof PDFRef) used.add(value.toString())
    else if (value instanceof PDFStream) visit(value.dict, depth + 1)
    else if (value instanceof PDFDict) for (const [, item] of value.entries()) visit(item, depth + 1)
    else if (value instanceof PDFArray) for (const item of value.asArray()) visit(item, depth + 1)
  }
  for (const ref of state.refs()) if (!skip.has(ref.toString())) visit(state.lookup(ref), 0)
  return used
}

