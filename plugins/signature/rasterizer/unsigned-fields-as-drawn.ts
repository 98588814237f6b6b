// mupdf draws its own small red "SIGN" flag over every unsigned signature field, whatever the
// field's appearance says; a session's fields carry "Sign here: <label>" (pdf/field-placeholder-
// appearance.ts), which other viewers show. For the page images, each unsigned signature widget
// that has an appearance is shown as an annotation whose appearance is drawn as it is (a stamp):
// in memory only, the file is never written back.
import type * as mupdf from 'mupdf'

type Obj = mupdf.PDFObject

function showOwnAppearance(doc: mupdf.PDFDocument, widget: Obj): void {
  if (!widget.isDictionary() || String(widget.get('Subtype')) !== '/Widget' || widget.get('AP').isNull()) return
  widget.put('Subtype', doc.newName('Stamp'))
}

/** Every unsigned /Sig field of the AcroForm (merged with its widget, or its kids). */
export function drawUnsignedFieldsAsTheyAre(doc: mupdf.PDFDocument): void {
  try {
    const root = doc.getTrailer().get('Root')
    const form = root.isDictionary() ? root.get('AcroForm') : null
    const fields = form?.isDictionary() ? form.get('Fields') : null
    if (!fields?.isArray()) return
    for (let i = 0; i < fields.length; i++) {
      const field = fields.get(i)
      if (!field.isDictionary() || String(field.get('FT')) !== '/Sig' || !field.get('V').isNull()) continue
      const kids = field.get('Kids')
      if (kids.isArray()) for (let k = 0; k < kids.length; k++) showOwnAppearance(doc, kids.get(k))
      else showOwnAppearance(doc, field)
    }
  } catch {
    // A form this walk cannot read is drawn as mupdf draws it: the page image matters more.
  }
}
