// The placement designer (Alpine.js). Boxes are kept in PDF points, y from the bottom of the page,
// exactly as the meta call gives them and the save call takes them; pixels exist only while a box
// is drawn or dragged, converted with coordinates.js from the page's size in points and the size
// the image is shown at — never from a DPI, so zoom and window size do not matter.
import { boxProblem, MIN_BOX_POINTS } from './box-check.js'
import { boxStyle, draggedBox, nudgedBox } from './box-gestures.js'
import { ptToPx } from './coordinates.js'
import { clampToPage, createUndoHistory, placementOf, roundPt, samePlacement, saveAllReport, snapBox } from './designer-edit.js'
import { mountComponent } from './mount-component.js'

const GRID_PT = 5
// CSS pixels per point at 100 %: a point is 1/72 in, a CSS pixel 1/96 in.
const PX_PER_PT = 96 / 72
const ZOOM_STEPS = [0.5, 0.75, 1, 1.25, 1.5, 2, 3]
const FIELDS = { x: 'X', y: 'Y', width: 'Width', height: 'Height' }

function csrfToken () {
  return document.querySelector('meta[name="csrf-token"]')?.getAttribute('content') ?? ''
}

const isTextEntry = (element) => element instanceof HTMLElement && element.matches('input, textarea, select, [contenteditable="true"]')

function designer (root) {
  // Not reactive: Alpine would proxy it for nothing; undoCount tells the markup what it holds.
  const history = createUndoHistory(50)
  let gesture = 0
  return () => ({
    pages: [],
    slots: [],
    currentPage: 1,
    selectedKey: null,
    shown: { width: 0, height: 0 },
    imageReady: false,
    loadError: '',
    savingAll: false,
    allStatus: '',
    allMessage: '',
    drag: null,
    zoom: 'fit',
    snap: false,
    allNames: false,
    undoCount: 0,
    announcement: '',
    fieldError: '',

    async init () {
      this.onMove = (event) => this.moveDrag(event)
      this.onUp = () => this.endDrag()
      // The shown size changes with the window and the zoom: boxes are re-drawn from points.
      new ResizeObserver(() => this.measure()).observe(this.image())
      this.$watch('currentPage', () => { this.imageReady = false })
      // Leaving with moved but unsaved boxes asks first.
      window.addEventListener('beforeunload', (event) => { if (this.slots.some((slot) => slot.dirty)) event.preventDefault() })
      // Ctrl+Z (Cmd+Z) anywhere but in a text field, where it undoes the typing instead.
      window.addEventListener('keydown', (event) => {
        if ((event.ctrlKey || event.metaKey) && !event.shiftKey && !event.altKey && event.key.toLowerCase() === 'z' && !isTextEntry(event.target)) {
          event.preventDefault()
          this.undo()
        }
      })
      try {
        const response = await fetch(root.dataset.metaUrl, { headers: { accept: 'application/json' }, credentials: 'same-origin' })
        const body = await response.json()
        if (!response.ok) throw new Error(body.message || `The designer could not load (${response.status})`)
        this.pages = body.pages
        this.slots = body.slots.map((slot) => ({ ...slot, base: placementOf(slot), dirty: false, status: '', message: '' }))
        this.currentPage = this.slots[0]?.page ?? 1
        this.selectedKey = this.slots[0]?.key ?? null
      } catch (error) {
        this.loadError = error.message
      }
    },

    pageSize (n = this.currentPage) {
      return this.pages.find((p) => p.page === n) ?? null
    },
    pageUrl (n) {
      // null, not '': an empty src is a failed image, drawn as a broken-image glyph.
      return this.pages.length ? root.dataset.pageUrl.replace('__page__', String(n)) : null
    },
    pageSizeText () {
      const size = this.pageSize()
      return size ? `${size.width} × ${size.height} pt` : ''
    },
    imageStyle () {
      const size = this.pageSize()
      if (!size) return ''
      // The page's proportions hold the place while the image loads, so the skeleton has its size.
      const ratio = `aspect-ratio: ${size.width} / ${size.height};`
      if (this.zoom === 'fit') return `${ratio} width: 100%;`
      return `${ratio} width: ${Math.round(size.width * PX_PER_PT * this.zoom)}px; max-width: none;`
    },
    imageLoaded () {
      this.measure()
      this.imageReady = true
    },
    imageFailed () {
      if (this.pages.length) this.loadError = `Page ${this.currentPage} could not be shown.`
    },
    image () {
      return this.$root.querySelector('[data-page-image]')
    },
    measure () {
      const image = this.image()
      if (!image || !image.complete || !image.naturalWidth) return
      this.shown = { width: image.clientWidth, height: image.clientHeight }
    },

    /** The zoom now in effect, 1 = 100 % (a point is 1/72 in on screen). */
    effectiveZoom () {
      const size = this.pageSize()
      if (this.zoom !== 'fit') return this.zoom
      return size && this.shown.width ? this.shown.width / (size.width * PX_PER_PT) : 1
    },
    zoomText () {
      if (this.zoom === 'fit' && !this.shown.width) return 'Fit width'
      const percent = `${Math.round(this.effectiveZoom() * 100)} %`
      return this.zoom === 'fit' ? `Fit width (${percent})` : percent
    },
    zoomBy (direction) {
      const now = this.effectiveZoom()
      const next = direction > 0 ? ZOOM_STEPS.find((z) => z > now + 0.01) : [...ZOOM_STEPS].reverse().find((z) => z < now - 0.01)
      if (next) this.zoom = next
    },

    slotsOnPage () {
      return this.slots.filter((slot) => slot.page === this.currentPage)
    },
    selected () {
      return this.slots.find((slot) => slot.key === this.selectedKey) ?? null
    },
    boxStyle (slot) {
      const size = this.pageSize(slot.page)
      if (!size || !this.shown.width || !this.imageReady) return 'display: none'
      return boxStyle(slot, size, this.shown)
    },
    describe (slot) {
      return `page ${slot.page}, x ${slot.x}, y ${slot.y}, ${slot.width} × ${slot.height} pt`
    },
    stateText (slot) {
      if (slot.dirty) return 'unsaved changes'
      return slot.saved ? 'saved' : 'at defaults'
    },
    stateClass (slot) {
      if (slot.dirty) return 'badge-warning'
      return slot.saved ? 'badge-success' : 'badge-gray'
    },
    atDefault (slot) {
      return samePlacement(slot, slot.default)
    },
    // A box took the focus (a click or Tab): it is the selected one, and an old field error goes.
    focusSlot (slot) {
      this.selectedKey = slot.key
      this.fieldError = ''
    },
    select (slot) {
      this.selectedKey = slot.key
      this.fieldError = ''
      if (slot.page !== this.currentPage) this.currentPage = slot.page
      this.$nextTick(() => this.$root.querySelector(`[data-slot-box="${CSS.escape(slot.key)}"]`)?.focus())
    },

    /** Every change of a box goes through here: what it was is kept for undo. */
    change (slot, box, gestureId) {
      if (samePlacement({ ...placementOf(slot), ...box }, slot)) return
      history.record(slot.key, placementOf(slot), gestureId)
      this.undoCount = history.size
      Object.assign(slot, box)
      this.afterChange(slot)
    },
    afterChange (slot) {
      slot.dirty = !samePlacement(slot, slot.base)
      slot.status = ''
      slot.message = ''
    },
    place (slot, box, gestureId) {
      this.change(slot, clampToPage(box, this.pageSize(slot.page)), gestureId)
    },
    moveToCurrentPage (slot) {
      this.change(slot, { page: this.currentPage, ...clampToPage(slot, this.pageSize(this.currentPage)) })
      this.select(slot)
    },
    resetToDefault (slot) {
      this.change(slot, placementOf(slot.default))
      this.announcement = `${slot.label} is back at its default place.`
      this.select(slot)
    },
    undo () {
      const entry = history.undo()
      this.undoCount = history.size
      if (!entry) return
      const slot = this.slots.find((s) => s.key === entry.key)
      if (!slot) return
      Object.assign(slot, entry.before)
      this.afterChange(slot)
      this.selectedKey = slot.key
      this.fieldError = ''
      if (slot.page !== this.currentPage) this.currentPage = slot.page
      this.announcement = `Undone: ${slot.label} is at ${this.describe(slot)}.`
    },

    /** A number field of the inspector: refused, with the server's own words, when the box would be. */
    setField (slot, field, raw) {
      const value = Number(raw)
      if (raw === '' || !Number.isFinite(value)) {
        this.fieldError = `${FIELDS[field]} must be a number of points.`
        return
      }
      const box = { ...placementOf(slot), [field]: roundPt(value) }
      const problem = boxProblem(box, this.pages, slot.label)
      if (problem) {
        this.fieldError = problem.message
        return
      }
      this.fieldError = ''
      this.change(slot, box)
      // A field refused earlier still shows what was typed: every field shows the box again.
      this.$root.querySelectorAll('[data-field]').forEach((input) => { input.value = String(slot[input.dataset.field]) })
    },

    /** Grid and other boxes' edges on the same page, when snapping is on. */
    snapped (slot, box, edges) {
      if (!this.snap) return box
      const others = this.slots.filter((s) => s !== slot && s.page === slot.page)
      const result = snapBox(box, edges, { grid: GRID_PT, others })
      return result.width >= MIN_BOX_POINTS && result.height >= MIN_BOX_POINTS ? result : box
    },

    startDrag (event, slot, mode) {
      if (event.button !== 0 || !this.shown.width) return
      event.preventDefault()
      this.selectedKey = slot.key
      this.fieldError = ''
      event.currentTarget.closest('[data-slot-box]')?.focus({ preventScroll: true })
      const size = this.pageSize(slot.page)
      this.drag = { slot, mode, x: event.clientX, y: event.clientY, start: ptToPx(slot, size, this.shown), moved: false, gesture: ++gesture }
      window.addEventListener('pointermove', this.onMove)
      window.addEventListener('pointerup', this.onUp, { once: true })
      window.addEventListener('pointercancel', this.onUp, { once: true })
    },
    moveDrag (event) {
      const drag = this.drag
      if (!drag) return
      const dx = event.clientX - drag.x
      const dy = event.clientY - drag.y
      if (!drag.moved && Math.abs(dx) + Math.abs(dy) < 1) return
      drag.moved = true
      const pt = draggedBox(drag.start, drag.mode, dx, dy, this.pageSize(drag.slot.page), this.shown)
      // One drag is one undo step, however many pointer moves it took.
      this.place(drag.slot, this.snapped(drag.slot, pt, drag.mode), drag.gesture)
    },
    endDrag () {
      window.removeEventListener('pointermove', this.onMove)
      window.removeEventListener('pointercancel', this.onUp)
      window.removeEventListener('pointerup', this.onUp)
      this.drag = null
    },
    /** Arrows move the box (Shift: 10 pt); with Alt they move its bottom-right corner instead. */
    nudge (event, slot) {
      const box = nudgedBox(event, placementOf(slot), this.pageSize(slot.page), MIN_BOX_POINTS)
      if (!box) return
      event.preventDefault()
      this.place(slot, box)
    },

    /** Posts one slot; answers { ok, message } and shows the message under the slot. */
    async save (slot) {
      slot.status = 'saving'
      slot.message = 'Saving…'
      try {
        // sessionRecovery (the layout's script): an ended session or a stale token asks to sign in
        // again and sends this save once more, so the moved boxes are not lost.
        const send = window.sessionRecovery ? window.sessionRecovery.fetch : fetch
        const response = await send(root.dataset.saveUrl.replace('__slot__', encodeURIComponent(slot.key)), {
          method: 'POST',
          credentials: 'same-origin',
          headers: { 'content-type': 'application/json', accept: 'application/json', 'x-csrf-token': csrfToken() },
          body: JSON.stringify(placementOf(slot)),
        })
        const body = await response.json().catch(() => ({}))
        if (!response.ok) throw new Error(body.message || `Not saved (${response.status})`)
        const saved = placementOf(body)
        Object.assign(slot, saved, { base: saved, saved: true, dirty: false })
        slot.status = 'saved'
        slot.message = `Saved at ${new Date().toLocaleTimeString()}`
        return { ok: true }
      } catch (error) {
        slot.status = 'error'
        slot.message = `Not saved: ${error.message}`
        return { ok: false, message: error.message }
      }
    },
    /** Posts only the slots that changed since they were loaded or saved, and names each failure. */
    async saveAll () {
      this.savingAll = true
      this.allStatus = ''
      this.allMessage = 'Saving…'
      const results = []
      for (const slot of this.slots.filter((s) => s.dirty)) results.push({ label: slot.label, ...(await this.save(slot)) })
      const report = saveAllReport(results)
      this.savingAll = false
      this.allStatus = report.ok ? 'saved' : 'error'
      this.allMessage = report.message
    },
  })
}

mountComponent({ root: '[data-designer]', template: 'designer-template', loading: '[data-designer-loading]', name: 'slotDesigner', data: (root) => designer(root) })
