// The placement designer (Alpine.js). Boxes are kept in PDF points, y from the bottom of the page,
// exactly as the meta call gives them and the save call takes them; pixels exist only while a box
// is drawn or dragged, converted with coordinates.js from the page's size in points and the size
// the image is shown at — never from a DPI, so zoom and window size do not matter.
import { clampPx, ptToPx, pxToPt } from './coordinates.js'

const NUDGE_PT = 1
const NUDGE_BIG_PT = 10
const MIN_PX = 8

const round = (value) => Math.round(value * 100) / 100

function csrfToken () {
  return document.querySelector('meta[name="csrf-token"]')?.getAttribute('content') ?? ''
}

/** Keeps a box in points wholly on its page (what the server checks on save). */
function clampPt (box, page) {
  const width = Math.min(box.width, page.width)
  const height = Math.min(box.height, page.height)
  return {
    x: round(Math.min(Math.max(box.x, 0), page.width - width)),
    y: round(Math.min(Math.max(box.y, 0), page.height - height)),
    width: round(width),
    height: round(height),
  }
}

/** A corner dragged: the opposite corner stays put; edges stop at the page and at MIN_PX. */
function resizePx (start, corner, dx, dy, shown) {
  let left = start.left
  let top = start.top
  let right = start.left + start.width
  let bottom = start.top + start.height
  if (corner.includes('w')) left = Math.min(Math.max(left + dx, 0), right - MIN_PX)
  if (corner.includes('e')) right = Math.max(Math.min(right + dx, shown.width), left + MIN_PX)
  if (corner.includes('n')) top = Math.min(Math.max(top + dy, 0), bottom - MIN_PX)
  if (corner.includes('s')) bottom = Math.max(Math.min(bottom + dy, shown.height), top + MIN_PX)
  return { left, top, width: right - left, height: bottom - top }
}

function designer (root) {
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

    async init () {
      this.onMove = (event) => this.moveDrag(event)
      this.onUp = () => this.endDrag()
      // The shown size changes with the window: boxes are re-drawn from points.
      new ResizeObserver(() => this.measure()).observe(this.image())
      this.$watch('currentPage', () => { this.imageReady = false })
      // Leaving with moved but unsaved boxes asks first.
      window.addEventListener('beforeunload', (event) => { if (this.slots.some((slot) => slot.dirty)) event.preventDefault() })
      try {
        const response = await fetch(root.dataset.metaUrl, { headers: { accept: 'application/json' }, credentials: 'same-origin' })
        const body = await response.json()
        if (!response.ok) throw new Error(body.message || `The designer could not load (${response.status})`)
        this.pages = body.pages
        this.slots = body.slots.map((slot) => ({ ...slot, dirty: false, status: '', message: '' }))
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
      return this.pages.length ? root.dataset.pageUrl.replace('__page__', String(n)) : ''
    },
    pageSizeText () {
      const size = this.pageSize()
      return size ? `${size.width} × ${size.height} pt` : ''
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

    slotsOnPage () {
      return this.slots.filter((slot) => slot.page === this.currentPage)
    },
    boxStyle (slot) {
      const size = this.pageSize(slot.page)
      if (!size || !this.shown.width || !this.imageReady) return 'display: none'
      const px = ptToPx(slot, size, this.shown)
      return `left: ${px.left}px; top: ${px.top}px; width: ${px.width}px; height: ${px.height}px`
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
    select (slot) {
      this.selectedKey = slot.key
      if (slot.page !== this.currentPage) this.currentPage = slot.page
      this.$nextTick(() => this.$root.querySelector(`[data-slot-box="${CSS.escape(slot.key)}"]`)?.focus())
    },
    place (slot, box) {
      Object.assign(slot, clampPt(box, this.pageSize(slot.page)))
      slot.dirty = true
      slot.status = ''
      slot.message = ''
    },
    moveToCurrentPage (slot) {
      slot.page = this.currentPage
      this.place(slot, slot)
      this.select(slot)
    },

    startDrag (event, slot, mode) {
      if (event.button !== 0 || !this.shown.width) return
      event.preventDefault()
      this.selectedKey = slot.key
      event.currentTarget.closest('[data-slot-box]')?.focus({ preventScroll: true })
      const size = this.pageSize(slot.page)
      this.drag = { slot, mode, x: event.clientX, y: event.clientY, start: ptToPx(slot, size, this.shown), moved: false }
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
      const px = drag.mode === 'move'
        ? clampPx({ ...drag.start, left: drag.start.left + dx, top: drag.start.top + dy }, this.shown, MIN_PX)
        : resizePx(drag.start, drag.mode, dx, dy, this.shown)
      this.place(drag.slot, { ...pxToPt(px, this.pageSize(drag.slot.page), this.shown) })
    },
    endDrag () {
      window.removeEventListener('pointermove', this.onMove)
      window.removeEventListener('pointercancel', this.onUp)
      window.removeEventListener('pointerup', this.onUp)
      this.drag = null
    },
    nudge (event, slot) {
      const steps = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, 1], ArrowDown: [0, -1] }[event.key]
      if (!steps) return
      event.preventDefault()
      const step = event.shiftKey ? NUDGE_BIG_PT : NUDGE_PT
      // Points grow upwards: ArrowUp raises y.
      this.place(slot, { ...slot, x: slot.x + steps[0] * step, y: slot.y + steps[1] * step })
    },

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
          body: JSON.stringify({ page: slot.page, x: slot.x, y: slot.y, width: slot.width, height: slot.height }),
        })
        const body = await response.json().catch(() => ({}))
        if (!response.ok) throw new Error(body.message || `Not saved (${response.status})`)
        Object.assign(slot, { page: body.page, x: body.x, y: body.y, width: body.width, height: body.height, saved: true, dirty: false })
        slot.status = 'saved'
        slot.message = `Saved at ${new Date().toLocaleTimeString()}`
        return true
      } catch (error) {
        slot.status = 'error'
        slot.message = `Not saved: ${error.message}`
        return false
      }
    },
    async saveAll () {
      this.savingAll = true
      this.allStatus = ''
      this.allMessage = 'Saving…'
      let failed = 0
      for (const slot of this.slots) if (!(await this.save(slot))) failed++
      this.savingAll = false
      this.allStatus = failed ? 'error' : 'saved'
      this.allMessage = failed ? `${failed} of ${this.slots.length} slots were not saved; see each slot.` : `All ${this.slots.length} slots saved.`
    },
  })
}

// Alpine (loaded by the layout with `defer`) usually starts before this module runs, so the
// component's markup is inserted from a <template> after registering it: Alpine initialises
// markup added later through its mutation observer, and nothing depends on script order.
function mount () {
  const root = document.querySelector('[data-designer]')
  const template = document.getElementById('designer-template')
  if (!root || !template) return
  window.Alpine.data('slotDesigner', designer(root))
  root.querySelector('[data-designer-loading]')?.remove()
  root.append(template.content.cloneNode(true))
}

if (window.Alpine) mount()
else document.addEventListener('alpine:init', mount, { once: true })
