// "New document" (Alpine.js component `documentEditor`): upload a PDF, add signers, put their
// fields on its pages, send. Boxes are PDF points, y from the bottom of the page as displayed,
// exactly what POST /api/signing-sessions takes; pixels exist only while a box is drawn or
// dragged, through the designer's own gestures (box-gestures.js, coordinates.js).
// Markup: plugins/signature/views/document-new.eta. Attribute expressions are property reads and
// method calls only (Alpine's CSP build evaluates nothing else).
import { boxProblem, MIN_BOX_POINTS } from './box-check.js'
import { boxAtPointer, boxStyle as boxCss, draggedBox, nudgedBox } from './box-gestures.js'
import { ptToPx } from './coordinates.js'
import { clampToPage, placementOf } from './designer-edit.js'
import { editorFromTemplate, FIELD_TYPES, fieldType, refusalInWords, sendProblems, sessionBody, signerProblem, templateSaveBody, templateSessionBody } from './document-editor-model.js'
import { mountComponent } from './mount-component.js'

const SIGNER_COLOURS = 6
// The upload's refusals in the uploader's words; the server's own message follows.
const UPLOAD_REFUSALS = {
  ERR_BODY_TOO_LARGE: 'This file is too large.',
  ERR_PDF_INVALID: 'This is not a PDF that can be read.',
  ERR_PDF_ENCRYPTED: 'This PDF is password-protected: save it without a password and try again.',
  ERR_UNSUPPORTED_MEDIA_TYPE: 'Only PDF files can be sent.',
  ERR_ACCESS_DENIED: 'You may not upload documents.',
}

function csrfToken () {
  return document.querySelector('meta[name="csrf-token"]')?.getAttribute('content') ?? ''
}

const send = (...args) => (window.sessionRecovery ? window.sessionRecovery.fetch : fetch)(...args)

async function answerOf (response) {
  const body = await response.json().catch(() => ({}))
  if (!response.ok) {
    const error = new Error(body.message || `The server answered ${response.status}`)
    error.code = body.code
    throw error
  }
  return body.data ?? body
}

/** A template as the list shows it: with the accessible names of its Rename and Delete buttons. */
function listedTemplate (template) {
  return { ...template, renameLabel: `Rename the template ${template.label}`, deleteLabel: `Delete the template ${template.label}` }
}

function templateRefusal (error, template) {
  if (error.code === 'ERR_TEMPLATE_NOT_FOUND') return `The template “${template.label}” no longer exists: reload the page.`
  if (error.code === 'ERR_ACCESS_DENIED') return 'You may not change saved templates.'
  return error.message
}

function editor (config) {
  let seq = 0
  const nextKey = (prefix) => `${prefix}${++seq}`
  return () => ({
    fieldTypes: FIELD_TYPES,
    people: config.people,
    doc: null,
    uploading: false,
    uploadStatus: '',
    uploadError: '',
    dropActive: false,
    currentPage: 1,
    shown: { width: 0, height: 0 },
    imageReady: false,
    signers: [],
    currentSigner: null,
    newPerson: '',
    newName: '',
    newEmail: '',
    signerError: '',
    fields: [],
    selectedId: null,
    mode: 'sequential',
    message: '',
    dueAt: '',
    sending: false,
    problems: [],
    announcement: '',
    drag: null,
    paletteDrag: null,
    fieldError: '',
    // Saved templates (issue 38, item 6): the one this document was opened from, and saving one.
    templates: [],
    template: null,
    templateName: '',
    savingTemplate: false,
    saveStatus: '',
    saveError: '',
    mayRenameTemplates: Boolean(config.mayRenameTemplates),
    mayDeleteTemplates: Boolean(config.mayDeleteTemplates),
    templatesStatus: '',
    templatesError: '',

    init () {
      this.onMove = (event) => this.moveDrag(event)
      this.onUp = (event) => this.endDrag(event)
      new ResizeObserver(() => this.measure()).observe(this.image())
      this.$watch('currentPage', () => { this.imageReady = false })
      window.addEventListener('beforeunload', (event) => { if (this.doc && !this.sending && !this.template && this.fields.length) event.preventDefault() })
      if (config.templatesUrl) {
        send(config.templatesUrl, { credentials: 'same-origin', headers: { accept: 'application/json' } })
          .then(answerOf).then((list) => { this.templates = list.map(listedTemplate) }).catch(() => {})
      }
    },

    // ---- Saved templates
    hasTemplates () { return this.templates.length > 0 },
    fromTemplate () { return this.template !== null },
    isEditable () { return this.doc !== null && this.template === null },
    canSaveTemplate () { return Boolean(config.templateUrl) && this.isEditable() },
    canReorder () { return this.template === null && this.signers.length > 1 },
    templateTitle () { return this.template ? `From the template ${this.template.label}: choose who signs as each role, then send.` : '' },
    /** A template's button: its document and fields, a placeholder per role; only the signers to choose. */
    startFromTemplate (event) {
      const chosen = this.templates.find((t) => t.key === event.currentTarget.dataset.template)
      if (!chosen) return
      const { signers, fields } = editorFromTemplate(chosen, nextKey)
      this.template = chosen
      this.doc = { id: chosen.document.id, filename: chosen.document.filename, pages: chosen.document.pages }
      this.signers = signers
      this.fields = fields
      this.currentSigner = signers[0]?.key ?? null
      this.currentPage = 1
      this.problems = []
      this.announcement = `${chosen.label}: choose who signs as ${signers.map((s) => s.role).join(', then ')}, then send.`
      this.$nextTick(() => this.$root.querySelector('[data-editor-heading]')?.focus())
    },
    /** Rename: the app's dialog asks for the new name; the key (and every session made from it) stays. */
    async renameTemplate (event) {
      const chosen = this.templates.find((t) => t.key === event.currentTarget.dataset.renameTemplate)
      if (!chosen) return
      const opener = event.currentTarget
      // Now, while the button is in the page: $root is looked up from it.
      const root = this.$root
      this.templatesStatus = ''
      this.templatesError = ''
      const name = await window.appDialog.prompt({ title: `Rename “${chosen.label}”`, label: 'New name', value: chosen.label, confirmLabel: 'Rename', maxLength: 80 })
      if (!name || name === chosen.label) return opener.focus()
      try {
        const renamed = await answerOf(await send(config.savedTemplateUrl.replace('__key__', encodeURIComponent(chosen.key)), {
          method: 'PATCH',
          credentials: 'same-origin',
          headers: { 'content-type': 'application/json', accept: 'application/json', 'x-csrf-token': csrfToken() },
          body: JSON.stringify({ name }),
        }))
        this.templates = this.templates.map((t) => (t.key === chosen.key ? listedTemplate(renamed) : t))
        this.templatesStatus = `Renamed to “${renamed.label}”.`
      } catch (error) {
        this.templatesError = templateRefusal(error, chosen)
      }
      this.$nextTick(() => root.querySelector(`[data-rename-template="${CSS.escape(chosen.key)}"]`)?.focus())
    },
    /** Delete, once confirmed: sessions already sent from it go on; the list loses it. */
    async deleteTemplate (event) {
      const chosen = this.templates.find((t) => t.key === event.currentTarget.dataset.deleteTemplate)
      if (!chosen) return
      const opener = event.currentTarget
      // Now, while the button is in the page: once its template is gone, $root is not found from it.
      const root = this.$root
      this.templatesStatus = ''
      this.templatesError = ''
      const sure = await window.appDialog.confirm({
        title: `Delete the template “${chosen.label}”?`,
        message: 'Nobody can start from it again. Documents already sent from it are not affected.',
        confirmLabel: 'Delete', danger: true,
      })
      if (!sure) return opener.focus()
      try {
        await answerOf(await send(config.savedTemplateUrl.replace('__key__', encodeURIComponent(chosen.key)), {
          method: 'DELETE',
          credentials: 'same-origin',
          headers: { accept: 'application/json', 'x-csrf-token': csrfToken() },
        }))
      } catch (error) {
        // Deleted meanwhile (elsewhere): gone all the same.
        if (error.code !== 'ERR_TEMPLATE_NOT_FOUND') {
          this.templatesError = templateRefusal(error, chosen)
          return opener.focus()
        }
      }
      const index = this.templates.findIndex((t) => t.key === chosen.key)
      this.templates = this.templates.filter((t) => t.key !== chosen.key)
      this.announcement = `The template “${chosen.label}” was deleted.`
      this.templatesStatus = this.templates.length ? `Deleted “${chosen.label}”.` : ''
      // The focus goes to the next template in the list, or to the upload when none is left.
      const next = this.templates[Math.min(index, this.templates.length - 1)]
      this.$nextTick(() => (next ? root.querySelector(`[data-template="${CSS.escape(next.key)}"]`) : root.querySelector('[data-file-input]'))?.focus())
    },
    async saveTemplate () {
      if (this.savingTemplate) return
      this.saveStatus = ''
      this.saveError = ''
      const missing = sendProblems(this.signers, this.fields)
      if (!this.templateName.trim()) missing.unshift('Give the template a name.')
      if (missing.length) {
        this.saveError = missing.join(' ')
        return
      }
      this.savingTemplate = true
      try {
        const response = await send(config.templateUrl.replace('__id__', encodeURIComponent(this.doc.id)), {
          method: 'POST',
          credentials: 'same-origin',
          headers: { 'content-type': 'application/json', accept: 'application/json', 'x-csrf-token': csrfToken() },
          body: JSON.stringify(templateSaveBody({ name: this.templateName, signers: this.signers, fields: this.fields })),
        })
        const saved = await answerOf(response)
        this.templates = [...this.templates, listedTemplate(saved)]
        this.templateName = ''
        this.saveStatus = `Saved as the template “${saved.label}”. Next time, choose it under “1. The document” and only pick the signers.`
      } catch (error) {
        this.saveError = error.code === 'ERR_TEMPLATE_EXISTS' ? 'A template with this name exists already: choose another name.' : refusalInWords(error.message, this.signers, this.fields).join(' ')
      } finally {
        this.savingTemplate = false
      }
    },

    // ---- Upload
    hasDocument () { return this.doc !== null },
    noDocument () { return this.doc === null },
    dropZoneClass () { return { 'is-active': this.dropActive, 'is-busy': this.uploading } },
    dragOver (event) {
      event.preventDefault()
      this.dropActive = true
    },
    dragLeave () { this.dropActive = false },
    dropFile (event) {
      event.preventDefault()
      this.dropActive = false
      const file = event.dataTransfer?.files?.[0]
      if (file) this.upload(file)
    },
    pickFile (event) {
      const file = event.target.files?.[0]
      if (file) this.upload(file)
      event.target.value = ''
    },
    async upload (file) {
      if (this.uploading) return
      this.uploadError = ''
      if (!/\.pdf$/i.test(file.name) && file.type !== 'application/pdf') {
        this.uploadError = `${file.name} is not a PDF: choose a .pdf file.`
        return
      }
      this.uploading = true
      this.uploadStatus = `Uploading ${file.name}…`
      try {
        const response = await send(`${config.uploadUrl}?filename=${encodeURIComponent(file.name)}`, {
          method: 'POST',
          credentials: 'same-origin',
          headers: { 'content-type': 'application/pdf', accept: 'application/json', 'x-csrf-token': csrfToken() },
          body: file,
        })
        const data = await answerOf(response)
        this.doc = { id: data.id, filename: data.filename || file.name, pages: data.pages }
        this.currentPage = 1
        this.uploadStatus = ''
        this.announcement = `${this.doc.filename}: ${this.pageCountText()}. Add the signers, then place their fields.`
        this.$nextTick(() => this.$root.querySelector('[data-editor-heading]')?.focus())
      } catch (error) {
        this.uploadStatus = ''
        this.uploadError = [UPLOAD_REFUSALS[error.code], error.message].filter(Boolean).join(' ')
      } finally {
        this.uploading = false
      }
    },
    async startOver () {
      if (this.fields.length && !this.template) {
        const yes = await window.appDialog.confirm({
          title: 'Choose another PDF?',
          message: `The ${this.fields.length === 1 ? 'field' : `${this.fields.length} fields`} placed on ${this.doc.filename} are put away; the signers stay.`,
          confirmLabel: 'Choose another PDF',
          cancelLabel: 'Keep this one',
          danger: true,
        })
        if (!yes) return
      }
      if (this.template) this.signers = []
      this.template = null
      this.doc = null
      this.fields = []
      this.selectedId = null
      this.problems = []
      this.$nextTick(() => this.$root.querySelector('[data-file-input]')?.focus())
    },
    documentName () { return this.doc?.filename ?? '' },
    pageCountText () {
      const n = this.doc?.pages.length ?? 0
      return n === 1 ? 'one page' : `${n} pages`
    },

    // ---- Pages
    pageSize (n = this.currentPage) {
      return this.doc?.pages.find((p) => p.page === n) ?? null
    },
    pageNumbers () { return this.doc ? this.doc.pages.map((p) => p.page) : [] },
    pageOptionText (n) { return `Page ${n} of ${this.doc?.pages.length ?? 0}` },
    isCurrentPage (n) { return n === this.currentPage },
    choosePage (event) { this.currentPage = Number(event.target.value) },
    hasManyPages () { return (this.doc?.pages.length ?? 0) > 1 },
    isFirstPage () { return this.currentPage <= 1 },
    isLastPage () { return this.currentPage >= (this.doc?.pages.length ?? 1) },
    previousPage () { if (!this.isFirstPage()) this.currentPage-- },
    nextPage () { if (!this.isLastPage()) this.currentPage++ },
    pageUrl () {
      // null, not '': an empty src is a failed image, drawn as a broken-image glyph.
      return this.doc ? config.pageUrl.replace('__id__', encodeURIComponent(this.doc.id)).replace('__page__', String(this.currentPage)) : null
    },
    pageAlt () { return this.doc ? `Page ${this.currentPage} of ${this.doc.filename}` : '' },
    imageStyle () {
      const size = this.pageSize()
      return size ? `aspect-ratio: ${size.width} / ${size.height}; width: 100%;` : ''
    },
    image () { return this.$root.querySelector('[data-page-image]') },
    imageLoaded () {
      this.measure()
      this.imageReady = true
    },
    stageClass () { return { 'is-loading': !this.imageReady } },
    measure () {
      const image = this.image()
      if (!image || !image.complete || !image.naturalWidth) return
      this.shown = { width: image.clientWidth, height: image.clientHeight }
    },

    // ---- Signers
    hasSigners () { return this.signers.length > 0 },
    noSigners () { return this.signers.length === 0 },
    addPerson () {
      const person = this.people.find((p) => p.id === this.newPerson)
      const candidate = { user: this.newPerson, name: person?.name ?? '' }
      this.signerError = signerProblem(candidate, this.signers) ?? ''
      if (this.signerError) return
      this.addSigner({ key: nextKey('s'), user: person.id, name: person.name, email: person.email ?? '' })
      this.newPerson = ''
    },
    addByEmail () {
      const candidate = { name: this.newName, email: this.newEmail }
      this.signerError = signerProblem(candidate, this.signers) ?? ''
      if (this.signerError) return
      this.addSigner({ key: nextKey('s'), name: this.newName.trim(), email: this.newEmail.trim() })
      this.newName = ''
      this.newEmail = ''
    },
    addSigner (signer) {
      // From a template: the person fills the first role nobody was chosen for.
      const open = this.signers.find((s) => s.placeholder)
      if (open) {
        Object.assign(open, { user: signer.user, name: signer.name, email: signer.email, placeholder: false })
        this.announcement = `${signer.name} signs as ${open.role}.`
        return
      }
      if (this.template) {
        this.signerError = `The template has ${this.signers.length === 1 ? 'one signer' : `${this.signers.length} signers`}: remove one to choose someone else.`
        return
      }
      signer.colour = this.signers.length % SIGNER_COLOURS
      this.signers.push(signer)
      this.currentSigner = signer.key
      this.announcement = `${signer.name} added. New fields are for ${signer.name}.`
    },
    removeSigner (signer) {
      if (this.template) {
        // A template's role stays; only who signs as it is taken back.
        Object.assign(signer, { user: undefined, name: signer.role, email: '', placeholder: true })
        this.announcement = `Nobody signs as ${signer.role} yet.`
        return
      }
      const theirs = this.fields.filter((f) => f.signer === signer.key).length
      this.signers = this.signers.filter((s) => s !== signer)
      this.fields = this.fields.filter((f) => f.signer !== signer.key)
      if (this.currentSigner === signer.key) this.currentSigner = this.signers[0]?.key ?? null
      this.announcement = theirs ? `${signer.name} and their ${theirs === 1 ? 'field' : `${theirs} fields`} removed.` : `${signer.name} removed.`
    },
    moveSignerUp (signer) {
      const i = this.signers.indexOf(signer)
      if (i < 1) return
      this.signers.splice(i - 1, 2, this.signers[i], this.signers[i - 1])
      this.announcement = `${signer.name} now signs ${this.ordinal(i - 1)}.`
    },
    isFirstSigner (signer) { return this.signers[0] === signer },
    ordinal (i) { return ['first', 'second', 'third', 'fourth', 'fifth'][i] ?? `${i + 1}th` },
    signerNumber (signer) { return this.signers.indexOf(signer) + 1 },
    signerDetail (signer) {
      if (signer.placeholder) return 'not chosen yet: add a person'
      const how = signer.user ? `account · ${signer.email}` : `by e-mail · ${signer.email}`
      return signer.role && this.template ? `${signer.role} · ${how}` : how
    },
    isCurrentSigner (signer) { return this.currentSigner === signer.key },
    chooseSigner (signer) { this.currentSigner = signer.key },
    signerClass (key) {
      const signer = this.signers.find((s) => s.key === key)
      return `signer-colour-${signer ? signer.colour : 0}`
    },
    signerName (key) { return this.signers.find((s) => s.key === key)?.name ?? '' },
    currentSignerName () { return this.signerName(this.currentSigner) },
    paletteHelp () {
      return this.currentSigner ? `New fields are for ${this.currentSignerName()}.` : 'Add a signer first: each field belongs to one.'
    },
    signerFieldCount (signer) {
      const n = this.fields.filter((f) => f.signer === signer.key).length
      return n === 1 ? '1 field' : `${n} fields`
    },

    // ---- Fields
    fieldsOnPage () { return this.fields.filter((f) => f.page === this.currentPage) },
    hasFields () { return this.fields.length > 0 },
    selected () { return this.fields.find((f) => f.id === this.selectedId) ?? null },
    isSelected (field) { return field.id === this.selectedId },
    fieldCaption (field) { return `${field.label || fieldType(field.type).label} · ${this.signerName(field.signer)}` },
    fieldTypeLabel (field) { return fieldType(field.type).label },
    describe (field) { return `page ${field.page}, x ${field.x}, y ${field.y}, ${field.width} × ${field.height} pt` },
    boxLabel (field) { return `${this.fieldCaption(field)}: ${this.describe(field)}` },
    boxClass (field) { return `${this.signerClass(field.signer)}${this.isSelected(field) ? ' is-selected' : ''}` },
    boxStyle (field) {
      const size = this.pageSize(field.page)
      if (!size || !this.shown.width || !this.imageReady) return 'display: none'
      return boxCss(field, size, this.shown)
    },
    // A template's fields are shown, not moved: a picture of the field, out of the tab order.
    boxTabindex () { return this.template ? null : 0 },
    boxRole () { return this.template ? 'img' : 'button' },
    isTextField (field) { return field.type === 'text' },
    isFieldSigner (field, signer) { return field.signer === signer.key },
    labelFor (field) { return field.label ?? '' },

    /** A field of `type` for the current signer, centred on the page or on the pointer; selected and focused. */
    addField (type, at) {
      if (!this.currentSigner) {
        this.fieldError = 'Add a signer first: each field belongs to one.'
        return
      }
      const kind = fieldType(type)
      const size = this.pageSize()
      let box
      if (at && this.shown.width) box = boxAtPointer(at.left, at.top, kind, size, this.shown)
      else {
        // Centred, a little lower for each field already there, so new fields do not hide each other.
        const count = this.fieldsOnPage().length
        box = { x: (size.width - kind.width) / 2, y: (size.height - kind.height) / 2 - (count % 8) * (kind.height + 6), width: kind.width, height: kind.height }
      }
      const field = { id: nextKey('f'), signer: this.currentSigner, type, page: this.currentPage, ...clampToPage(box, size), label: '' }
      this.fields.push(field)
      this.fieldError = ''
      this.problems = []
      this.announcement = `${this.fieldCaption(field)} added on page ${field.page}. Arrow keys move it, Alt with the arrows resizes it, Delete removes it.`
      this.focusField(field)
    },
    /** A palette button: Enter, Space or a click adds its field; a drag onto the page (paletteDown) places it there. */
    addFromPalette (event) {
      if (this.paletteDrag?.dropped) {
        this.paletteDrag = null
        return
      }
      this.paletteDrag = null
      this.addField(event.currentTarget.dataset.type)
    },
    removeField (field) {
      this.fields = this.fields.filter((f) => f !== field)
      if (this.selectedId === field.id) this.selectedId = null
      this.announcement = `${this.fieldCaption(field)} removed.`
      this.$nextTick(() => this.$root.querySelector('[data-palette] button')?.focus())
    },
    setFieldSigner (field, event) {
      field.signer = event.target.value
      this.problems = []
    },
    setFieldLabel (field, event) { field.label = event.target.value },
    select (field) {
      this.selectedId = field.id
    },
    focusField (field) {
      this.selectedId = field.id
      if (field.page !== this.currentPage) this.currentPage = field.page
      this.$nextTick(() => this.$root.querySelector(`[data-field-box="${CSS.escape(field.id)}"]`)?.focus())
    },
    place (field, box) {
      Object.assign(field, clampToPage(box, this.pageSize(field.page)))
    },
    /** Arrows move (Shift: 10 pt), Alt+arrows resize, Delete or Backspace removes. */
    keyOnBox (event, field) {
      if (this.template) return
      if (event.key === 'Delete' || event.key === 'Backspace') {
        event.preventDefault()
        this.removeField(field)
        return
      }
      const box = nudgedBox(event, placementOf(field), this.pageSize(field.page), MIN_BOX_POINTS)
      if (!box) return
      event.preventDefault()
      this.place(field, box)
    },
    startDrag (event, field, mode) {
      // A template's fields are its own: the session takes them as saved.
      if (event.button !== 0 || !this.shown.width || this.template) return
      event.preventDefault()
      this.selectedId = field.id
      event.currentTarget.closest('[data-field-box]')?.focus({ preventScroll: true })
      this.drag = { field, mode, x: event.clientX, y: event.clientY, start: ptToPx(field, this.pageSize(field.page), this.shown) }
      window.addEventListener('pointermove', this.onMove)
      window.addEventListener('pointerup', this.onUp, { once: true })
      window.addEventListener('pointercancel', this.onUp, { once: true })
    },
    startResize (event, field) {
      event.stopPropagation()
      this.startDrag(event, field, event.currentTarget.dataset.handle)
    },
    /** A palette button pressed with a pointer: dragged onto the page, its field lands where it is let go. */
    paletteDown (event) {
      if (event.button !== 0 || !this.shown.width) return
      this.paletteDrag = { type: event.currentTarget.dataset.type, x: event.clientX, y: event.clientY, moved: false, dropped: false }
      window.addEventListener('pointermove', this.onMove)
      window.addEventListener('pointerup', this.onUp, { once: true })
      window.addEventListener('pointercancel', this.onUp, { once: true })
    },
    ghostStyle () {
      const p = this.paletteDrag
      return p && p.moved ? `left: ${p.cx}px; top: ${p.cy}px` : 'display: none'
    },
    ghostText () { return this.paletteDrag ? fieldType(this.paletteDrag.type).label : '' },
    moveDrag (event) {
      const palette = this.paletteDrag
      if (palette) {
        palette.cx = event.clientX
        palette.cy = event.clientY
        if (Math.abs(event.clientX - palette.x) + Math.abs(event.clientY - palette.y) > 4) palette.moved = true
        return
      }
      const drag = this.drag
      if (!drag) return
      const pt = draggedBox(drag.start, drag.mode, event.clientX - drag.x, event.clientY - drag.y, this.pageSize(drag.field.page), this.shown)
      this.place(drag.field, pt)
    },
    endDrag (event) {
      window.removeEventListener('pointermove', this.onMove)
      window.removeEventListener('pointercancel', this.onUp)
      window.removeEventListener('pointerup', this.onUp)
      const palette = this.paletteDrag
      if (palette && palette.moved && event) {
        const rect = this.image().getBoundingClientRect()
        const inside = event.clientX >= rect.left && event.clientX <= rect.right && event.clientY >= rect.top && event.clientY <= rect.bottom
        palette.dropped = true
        if (inside) this.addField(palette.type, { left: event.clientX - rect.left, top: event.clientY - rect.top })
        // The click that follows the pointerup must not add a second field.
        setTimeout(() => { if (this.paletteDrag === palette) this.paletteDrag = null })
      } else if (palette) {
        this.paletteDrag = null
      }
      this.drag = null
    },

    // ---- Send
    hasProblems () { return this.problems.length > 0 },
    sendLabel () { return this.sending ? 'Sending…' : 'Send for signature' },
    async send () {
      if (this.sending) return
      this.problems = sendProblems(this.signers, this.fields)
      const off = this.fields.map((f) => boxProblem(f, this.doc.pages, this.fieldCaption(f))).filter(Boolean)
      this.problems.push(...off.map((p) => p.message))
      if (this.problems.length) {
        this.$nextTick(() => this.$root.querySelector('[data-send-problems]')?.focus())
        return
      }
      this.sending = true
      try {
        const body = this.template
          ? templateSessionBody({ template: this.template.key, mode: this.mode, message: this.message, dueAt: this.dueAt, signers: this.signers })
          : sessionBody({ document: this.doc.id, mode: this.mode, message: this.message, dueAt: this.dueAt, signers: this.signers, fields: this.fields })
        const response = await send(config.sessionsUrl, {
          method: 'POST',
          credentials: 'same-origin',
          headers: { 'content-type': 'application/json', accept: 'application/json', 'x-csrf-token': csrfToken() },
          body: JSON.stringify(body),
        })
        const session = await answerOf(response)
        window.location.assign(config.sessionUrl.replace('__id__', encodeURIComponent(session.id)))
      } catch (error) {
        this.sending = false
        this.problems = refusalInWords(error.message, this.signers, this.fields)
        this.$nextTick(() => this.$root.querySelector('[data-send-problems]')?.focus())
      }
    },
  })
}

mountComponent({ root: '[data-document-editor]', template: 'document-editor-template', loading: '[data-editor-loading]', name: 'documentEditor', data: (root) => editor(JSON.parse(root.dataset.config)) })
