// The signer page: page image, slot boxes with the active signature's image, chips, finish.
// Coordinates on the wire are PDF points with y from the bottom; only this file knows pixels.
(function () {
  'use strict'
  const root = document.querySelector('[data-signer]')
  if (!root) return
  const config = JSON.parse(root.dataset.config)
  // Read at each write: the page's token is renewed when the person signs in again (session-recovery.js).
  const csrf = () => document.querySelector('meta[name="csrf-token"]')?.content ?? ''
  // An ended session does not lose the placed stamps: sign in again, and the request is sent again.
  const send = (url, init) => (window.sessionRecovery ? window.sessionRecovery.fetch(url, init) : fetch(url, init))
  const $ = (selector) => root.querySelector(selector)
  const canvas = $('[data-canvas]')
  const chips = $('[data-chips]')
  const finish = $('[data-finish]')
  const status = $('[data-status]')
  const pageSelect = $('[data-page]')

  const progress = $('[data-progress]')
  const next = $('[data-next]')
  const stage = $('[data-stage]')
  const zoomValue = $('[data-zoom-value]')

  // Steps of the arrow keys on a placed stamp, in points (as the designer's nudge).
  const NUDGE_PT = 1
  const NUDGE_BIG_PT = 10
  const ZOOMS = [1, 1.25, 1.5, 2, 3]

  let meta = null
  let page = 1
  let busy = false
  let done = false
  let zoom = 1
  /** slot key -> { page, x, y, width, height } in points */
  const placed = new Map()
  let image = null
  /** After the next drawing of the page: scroll this slot's stamp (or marker) into view, maybe focus it. */
  let reveal = null
  /** Where "Next field" continues from: an index into meta.slots. */
  let cursor = -1

  function say(kind, text, link) {
    status.hidden = false
    status.className = `flash flash-${kind} signer-result`
    status.textContent = text
    if (link) {
      status.append(' ')
      const a = document.createElement('a')
      a.href = link.href
      a.textContent = link.text
      a.setAttribute('data-download', '')
      status.append(a)
    }
  }

  async function json(response) {
    const body = await response.json().catch(() => ({}))
    if (!response.ok) throw Object.assign(new Error(body.message || `${response.status} ${response.statusText}`), { code: body.code })
    return body.data
  }

  function loads(src) {
    return new Promise((resolve) => {
      const probe = new Image()
      probe.addEventListener('load', () => resolve(true))
      probe.addEventListener('error', () => resolve(false))
      probe.src = src
    })
  }

  function pageSize(n) {
    return meta.pages[n - 1]
  }

  function scale() {
    return image ? image.clientWidth / pageSize(page).width : 1
  }

  function slotOf(slotKey) {
    return meta.slots.find((candidate) => candidate.key === slotKey)
  }

  /** Where a slot's stamp goes when nothing says otherwise: its saved placement, if on a page of this document. */
  function savedPlacement(slot) {
    return slot.placement && pageSize(slot.placement.page) ? slot.placement : null
  }

  function renderPage() {
    canvas.replaceChildren()
    image = document.createElement('img')
    image.className = 'signer-page'
    image.alt = `${done ? 'Signed page' : 'Page'} ${page} of ${meta.template.label}`
    image.src = config.pageImageUrl.replace('/pages/0', `/pages/${page}`)
    image.addEventListener('load', renderBoxes)
    image.addEventListener('error', () => say('error', 'The page image could not be loaded.'))
    canvas.append(image)
  }

  function position(element, p) {
    const s = scale()
    const size = pageSize(page)
    element.style.left = `${p.x * s}px`
    element.style.top = `${(size.height - p.y - p.height) * s}px`
    element.style.width = `${p.width * s}px`
    element.style.height = `${p.height * s}px`
  }

  /** The stamps placed on this page, and a "Sign here" marker on every field of it not placed yet. */
  function renderBoxes() {
    // A redraw replaces the focused stamp or marker: the same slot's new one takes the focus.
    const focused = document.activeElement?.closest?.('[data-box], [data-marker]')
    if (focused && canvas.contains(focused) && !reveal) reveal = { key: focused.dataset.box || focused.dataset.marker, focus: true, scroll: false }
    canvas.querySelectorAll('.signer-box, .signer-marker').forEach((element) => element.remove())
    if (!image || !image.complete) return
    const active = meta.signatures.find((sig) => sig.active)
    for (const slot of meta.slots) {
      const p = placed.get(slot.key)
      if (p && p.page === page) canvas.append(stampFor(slot, p, active))
      const saved = savedPlacement(slot)
      if (!p && !done && saved && saved.page === page) canvas.append(markerFor(slot, saved))
    }
    if (reveal) {
      const target = canvas.querySelector(`[data-box="${CSS.escape(reveal.key)}"]`) || canvas.querySelector(`[data-marker="${CSS.escape(reveal.key)}"]`)
      if (target) {
        if (reveal.scroll !== false) target.scrollIntoView({ block: 'center', inline: 'nearest' })
        if (reveal.focus) target.focus({ preventScroll: true })
        reveal = null
      }
    }
  }

  function stampFor(slot, p, active) {
    const box = document.createElement('div')
    box.className = 'signer-box'
    box.dataset.box = slot.key
    position(box, p)
    if (!done) {
      // Reachable by Tab, moved with the arrow keys.
      box.tabIndex = 0
      box.setAttribute('role', 'group')
      box.setAttribute('aria-roledescription', 'placed signature')
      box.setAttribute('aria-label', `${slot.label}: ${active.label}`)
      box.setAttribute('aria-describedby', 'signer-box-help')
    }
    const label = document.createElement('span')
    label.className = 'signer-box-label'
    label.setAttribute('aria-hidden', 'true')
    label.textContent = slot.label
    const stamp = document.createElement('img')
    stamp.src = active.image
    stamp.alt = done ? `${active.label}` : ''
    box.append(label, stamp)
    if (!done) {
      const remove = document.createElement('button')
      remove.type = 'button'
      remove.className = 'signer-box-remove'
      remove.textContent = '×'
      remove.tabIndex = -1
      remove.setAttribute('aria-label', `Remove ${slot.label}`)
      remove.addEventListener('click', (event) => { event.stopPropagation(); remove.blur(); unplace(slot.key) })
      box.append(remove)
      drag(box, slot.key)
      box.addEventListener('keydown', (event) => nudge(event, box, slot.key))
    }
    return box
  }

  function markerFor(slot, p) {
    const marker = document.createElement('button')
    marker.type = 'button'
    marker.className = 'signer-marker'
    marker.dataset.marker = slot.key
    position(marker, p)
    const tab = document.createElement('span')
    tab.className = 'signer-marker-text'
    const arrow = document.createElement('span')
    arrow.setAttribute('aria-hidden', 'true')
    arrow.textContent = '➜'
    const text = document.createElement('span')
    text.textContent = `Sign here: ${slot.label}`
    tab.append(arrow, text)
    marker.append(tab)
    marker.addEventListener('click', () => place(slot.key, { focus: true }))
    return marker
  }

  /** Arrow keys move the focused stamp (Shift: further); Delete or Backspace removes it. */
  function nudge(event, box, slotKey) {
    if (event.key === 'Delete' || event.key === 'Backspace') {
      event.preventDefault()
      reveal = { key: slotKey, focus: true, scroll: false }
      unplace(slotKey)
      return
    }
    const steps = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, 1], ArrowDown: [0, -1] }[event.key]
    if (!steps || done) return
    event.preventDefault()
    const step = event.shiftKey ? NUDGE_BIG_PT : NUDGE_PT
    const size = pageSize(page)
    const p = placed.get(slotKey)
    // Points grow upwards: ArrowUp raises y.
    p.x = Math.min(Math.max(0, p.x + steps[0] * step), size.width - p.width)
    p.y = Math.min(Math.max(0, p.y + steps[1] * step), size.height - p.height)
    position(box, p)
  }

  /** Moving a box: pointer px -> points, clamped to the page. */
  function drag(box, slotKey) {
    box.addEventListener('pointerdown', (event) => {
      if (done || event.target.closest('button')) return
      event.preventDefault()
      box.focus({ preventScroll: true })
      box.setPointerCapture(event.pointerId)
      const start = { x: event.clientX, y: event.clientY, p: { ...placed.get(slotKey) } }
      const move = (e) => {
        const s = scale()
        const size = pageSize(page)
        const p = placed.get(slotKey)
        p.x = Math.min(Math.max(0, start.p.x + (e.clientX - start.x) / s), size.width - p.width)
        p.y = Math.min(Math.max(0, start.p.y - (e.clientY - start.y) / s), size.height - p.height)
        position(box, p)
      }
      const up = () => { box.removeEventListener('pointermove', move); box.removeEventListener('pointerup', up) }
      box.addEventListener('pointermove', move)
      box.addEventListener('pointerup', up)
    })
  }

  /**
   * Places a slot's stamp and brings it into view (on its own page); `focus` moves the focus to it.
   * A first-time signer has no signature yet: it is made first, in a dialog, then placed.
   */
  function place(slotKey, { focus = false } = {}) {
    if (done || placed.has(slotKey)) return
    if (!config.signature) {
      askForSignature().then((made) => { if (made) place(slotKey, { focus: true }) })
      return
    }
    const slot = slotOf(slotKey)
    cursor = meta.slots.indexOf(slot)
    const saved = savedPlacement(slot)
    reveal = { key: slotKey, focus }
    if (saved) {
      placed.set(slotKey, { ...saved })
      if (saved.page !== page) return goTo(saved.page)
    } else {
      // No placement known: the centre of the page in view.
      const size = pageSize(page)
      const width = Math.min(200, size.width)
      const height = Math.min(60, size.height)
      placed.set(slotKey, { page, x: (size.width - width) / 2, y: (size.height - height) / 2, width, height })
    }
    update()
  }

  function unplace(slotKey) {
    if (done) return
    placed.delete(slotKey)
    update()
  }

  function toggle(slotKey) {
    if (placed.has(slotKey)) unplace(slotKey)
    else place(slotKey)
  }

  /**
   * The next field not placed yet, after the last one worked on: its stamp placed, shown and
   * focused (a button named "Next field" that only scrolled left people waiting for the stamp);
   * none left, Finish & Save.
   */
  function nextField() {
    const count = meta.slots.length
    for (let step = 1; step <= count; step++) {
      const index = (cursor + step) % count
      const slot = meta.slots[index]
      if (placed.has(slot.key)) continue
      cursor = index
      return place(slot.key, { focus: true })
    }
    finish.focus()
  }

  function update() {
    chips.querySelectorAll('[data-chip]').forEach((chip) => { chip.setAttribute('aria-pressed', String(placed.has(chip.dataset.chip))); chip.disabled = done })
    finish.disabled = done || placed.size === 0
    // While signing the button keeps the focus: marked busy rather than disabled.
    finish.setAttribute('aria-disabled', String(busy))
    finish.hidden = done
    // Signed: nothing is left to place, so no faded chips either; the progress says "Signed".
    chips.hidden = done
    $('#signer-fields-label').hidden = done
    if (done) $('[data-required-legend]').hidden = true
    next.hidden = done || meta.slots.length === 0
    progress.hidden = meta.slots.length === 0
    if (!done) progress.textContent = `${placed.size} of ${meta.slots.length} placed`
    else progress.textContent = 'Signed'
    renderBoxes()
  }

  function goTo(n) {
    page = n
    pageSelect.value = String(n)
    renderPage()
    update()
  }

  function setZoom(value) {
    zoom = value
    const padding = parseFloat(getComputedStyle(stage).paddingLeft) * 2
    const fit = Math.min(stage.clientWidth - padding, 1100)
    canvas.classList.toggle('is-zoomed', zoom !== 1)
    canvas.style.width = zoom === 1 ? '' : `${Math.round(fit * zoom)}px`
    zoomValue.textContent = `${Math.round(zoom * 100)}%`
    $('[data-zoom-out]').disabled = zoom === ZOOMS[0]
    $('[data-zoom-in]').disabled = zoom === ZOOMS[ZOOMS.length - 1]
    $('[data-zoom-fit]').disabled = zoom === 1
    renderBoxes()
  }

  $('[data-zoom-in]').addEventListener('click', () => setZoom(ZOOMS.find((z) => z > zoom) ?? zoom))
  $('[data-zoom-out]').addEventListener('click', () => setZoom([...ZOOMS].reverse().find((z) => z < zoom) ?? zoom))
  $('[data-zoom-fit]').addEventListener('click', () => setZoom(1))
  next.addEventListener('click', nextField)

  function renderChips() {
    chips.replaceChildren()
    for (const slot of meta.slots) {
      const chip = document.createElement('button')
      chip.type = 'button'
      chip.className = 'signer-chip'
      chip.dataset.chip = slot.key
      chip.setAttribute('aria-pressed', 'false')
      chip.textContent = slot.label + (slot.required ? ' *' : '')
      if (slot.required) chip.setAttribute('aria-label', `${slot.label} (required)`)
      chip.title = slot.role ? `Sign as ${slot.role}` : `Place “${slot.label}”`
      chip.addEventListener('click', () => toggle(slot.key))
      chips.append(chip)
    }
    $('[data-required-legend]').hidden = !meta.slots.some((slot) => slot.required)
  }

  function renderPageSelect() {
    const selector = $('[data-page-select]')
    selector.hidden = meta.pages.length <= 1
    pageSelect.replaceChildren(...meta.pages.map((p, i) => new Option(`${i + 1} of ${meta.pages.length}`, String(i + 1))))
    pageSelect.addEventListener('change', () => goTo(Number(pageSelect.value)))
  }

  function renderStrip() {
    $('[data-strip-section]').hidden = meta.signatures.length === 0
    const strip = $('[data-strip]')
    strip.replaceChildren()
    for (const sig of meta.signatures) {
      const item = document.createElement(sig.active ? 'div' : 'a')
      item.className = `signer-strip-item${sig.active ? ' is-active' : ''}`
      item.dataset.signature = sig.uuid
      if (sig.active) item.setAttribute('aria-current', 'true')
      else item.href = config.signWithUrl.replace('00000000-0000-0000-0000-000000000000', sig.uuid)
      const img = document.createElement('img')
      img.src = sig.image
      img.alt = ''
      const label = document.createElement('span')
      label.textContent = `${sig.label}${sig.primary ? ' ★' : ''}${sig.active ? ' (in use)' : ''}`
      item.append(img, label)
      strip.append(item)
    }
  }

  finish.addEventListener('click', async () => {
    if (placed.size === 0 || busy || done) return
    busy = true
    update()
    say('info', 'Signing…')
    const placements = [...placed].map(([slot, p]) => ({
      slot, page: p.page,
      x: Math.round(p.x * 100) / 100, y: Math.round(p.y * 100) / 100,
      width: Math.round(p.width * 100) / 100, height: Math.round(p.height * 100) / 100,
    }))
    const body = { signature: config.signature, placements }
    if (config.signable) body.signable = config.signable
    if (config.request) body.request = config.request
    const submit = (extra) => send(config.finalizeUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json', 'x-csrf-token': csrf() },
      body: JSON.stringify({ ...body, ...extra }),
    }).then(json)
    // A slot signed before is never signed again silently: ask why first (meta says which were);
    // the server's 409 covers what changed since the page loaded.
    const before = meta.slots.filter((slot) => placed.has(slot.key) && slot.signedBefore)
    const ask = (message) => askWhySignAgain(message, (reason) => submit({ reason }))
    try {
      let result
      if (before.length > 0) {
        result = await ask(`${before.map((slot) => `${slot.label}: signed on ${new Date(slot.signedBefore.at).toLocaleString()}`).join('; ')}. Sign again?`)
      } else {
        try {
          result = await submit({})
        } catch (error) {
          if (error.code !== 'ERR_ALREADY_SIGNED') throw error
          result = await ask(error.message)
        }
      }
      if (!result) { say('info', 'Not signed again: the earlier signature stands.'); return }
      done = true
      root.dataset.finished = result.status
      if (result.status === 'signed') {
        // Show what was signed: the signed document's page, its stamps drawn by the PDF itself, not
        // boxes over the unsigned page. Loaded before the swap so the page never goes blank; if it
        // cannot load, the unsigned page and its boxes stay.
        if (await loads(result.page_image_url.replace('/pages/0', `/pages/${page}`))) {
          config.pageImageUrl = result.page_image_url
          placed.clear()
          root.dataset.showing = 'signed'
          renderPage()
        }
        say('success', `Signed on ${new Date(result.signed_at).toLocaleString()}.`, { href: result.download_url, text: 'Download the signed PDF' })
      } else {
        say('success', `Placements confirmed (${result.placements.length}). No document was signed: this page was opened without a record.`)
      }
    } catch (error) {
      say('error', `Could not finish: ${error.message}`)
    } finally {
      busy = false
      update()
    }
    if (done) {
      // Nothing is left to cancel: the link now only leaves the page, and Finish & Save is gone.
      const cancel = $('[data-cancel]')
      cancel.textContent = 'Done'
      cancel.classList.replace('button-secondary', 'button-primary')
      // The focus was on Finish & Save, now hidden: it goes to what happened (and the download
      // link), brought into the middle of the screen: scrolled by the focus alone, it stopped
      // under the sticky bars on a phone.
      status.focus({ preventScroll: true })
      status.scrollIntoView({ block: 'center' })
      refreshInboxBadge()
    }
  })

  /**
   * The top bar's Inbox count, drawn with the page, is stale once a request is signed here: it is
   * counted again from the Inbox's JSON (the requests that are the user's turn) and redrawn as the
   * layout draws it (core/views/layout.eta), or removed at zero.
   */
  async function refreshInboxBadge() {
    const link = document.querySelector('[data-topbar="signature.inbox"]')
    if (!link || !config.request) return
    try {
      const inbox = await json(await fetch(link.href, { headers: { accept: 'application/json' } }))
      const count = inbox.waiting.filter((item) => item.yourTurn).length
      link.querySelector('.count-badge')?.remove()
      if (count === 0) return
      const badge = document.createElement('span')
      badge.className = 'count-badge'
      const shown = document.createElement('span')
      shown.setAttribute('aria-hidden', 'true')
      shown.textContent = String(count)
      const said = document.createElement('span')
      said.className = 'sr-only'
      said.textContent = `${count} waiting for your signature`
      badge.append(shown, said)
      link.append(' ', badge)
    } catch {
      // The badge stays as it was; the next page draws it afresh.
    }
  }

  /**
   * The "Sign again?" dialog: resolves with the finalize answer once signed with a reason, or
   * null when the person cancels. A refused reason is shown in the dialog, which stays open.
   */
  function askWhySignAgain(message, signWith) {
    // The dialog is outside the signer's root (a modal of the page).
    const dialog = document.querySelector('[data-again-dialog]')
    const reason = dialog.querySelector('[data-again-reason]')
    const problem = dialog.querySelector('[data-again-error]')
    const submitButton = dialog.querySelector('[data-again-submit]')
    dialog.querySelector('[data-again-message]').textContent = message
    problem.hidden = true
    reason.value = ''
    return new Promise((resolve) => {
      const form = dialog.querySelector('[data-again-form]')
      const cancel = dialog.querySelector('[data-again-cancel]')
      const settle = (value) => {
        form.removeEventListener('submit', onSubmit)
        cancel.removeEventListener('click', onCancel)
        dialog.removeEventListener('cancel', onCancel)
        if (dialog.open) dialog.close()
        finish.focus()
        resolve(value)
      }
      const onCancel = (event) => { event.preventDefault(); settle(null) }
      const onSubmit = async (event) => {
        event.preventDefault()
        if (reason.value.trim().length < 3) {
          problem.textContent = 'Say in a few words why you sign again.'
          problem.hidden = false
          reason.setAttribute('aria-invalid', 'true')
          reason.focus()
          return
        }
        submitButton.disabled = true
        try {
          settle(await signWith(reason.value.trim()))
        } catch (error) {
          problem.textContent = `Could not sign: ${error.message}`
          problem.hidden = false
        } finally {
          submitButton.disabled = false
        }
      }
      form.addEventListener('submit', onSubmit)
      cancel.addEventListener('click', onCancel)
      dialog.addEventListener('cancel', onCancel)
      dialog.showModal()
      reason.focus()
    })
  }

  /**
   * The first-time signer's signature: drawn (signature_pad) or typed in the dialog, kept in the
   * library through /api/signatures (a certificate issued for the user), then used on this page.
   * Resolves true once kept, false when the person cancels. The opener keeps the focus to return to.
   */
  let drawing = null
  function askForSignature() {
    const dialog = document.querySelector('[data-newsig-dialog]')
    // A second click while it is open (a double click on a chip) asks nothing more.
    if (dialog.open) return Promise.resolve(false)
    const form = dialog.querySelector('[data-newsig-form]')
    const q = (selector) => form.querySelector(selector)
    const opener = document.activeElement
    const pad = q('[data-pad]')
    const typed = q('[data-typed]')
    const mode = () => form.elements.mode.value
    const clearErrors = () => {
      form.querySelectorAll('[data-error-for]').forEach((message) => { message.hidden = true; message.textContent = '' })
      form.querySelectorAll('[aria-invalid]').forEach((control) => control.removeAttribute('aria-invalid'))
    }
    const fieldError = (name, text, control) => {
      const message = form.querySelector(`[data-error-for="${name}"]`)
      message.textContent = text
      message.hidden = false
      if (control) { control.setAttribute('aria-invalid', 'true'); control.focus() }
    }
    const showMode = () => {
      q('[data-draw]').hidden = mode() !== 'draw'
      q('[data-type]').hidden = mode() !== 'type'
      q('[data-preview]').textContent = typed.value.trim()
      if (mode() === 'draw') drawing.fit()
    }
    return new Promise((resolve) => {
      const onChange = (event) => { if (event.target.name === 'mode') { showMode(); clearErrors() } }
      const onInput = () => { q('[data-preview]').textContent = typed.value.trim() }
      const onClear = () => drawing.clear()
      const settle = (value) => {
        for (const [target, type, handler] of listeners()) target.removeEventListener(type, handler)
        if (dialog.open) dialog.close()
        if (!value && opener && document.contains(opener)) opener.focus()
        resolve(value)
      }
      const onCancel = (event) => { event.preventDefault(); settle(false) }
      const onSubmit = async (event) => {
        event.preventDefault()
        clearErrors()
        const label = q('[data-label]').value.trim()
        if (!label) return fieldError('label', 'Give the signature a name.', q('[data-label]'))
        let image
        if (mode() === 'draw') {
          if (drawing.isEmpty()) return fieldError('pad', 'Draw your signature first.', pad)
          image = drawing.image()
        } else {
          image = await window.signatureDrawing.typedImage(typed.value)
          if (!image) return fieldError('typed', 'Type your name first.', typed)
        }
        const save = q('[data-newsig-save]')
        const progressText = q('[data-newsig-progress]')
        save.disabled = true
        progressText.hidden = false
        progressText.textContent = 'Issuing your certificate…'
        try {
          // An ended session does not lose the drawing: sign in again, sent again (session-recovery.js).
          const kept = await window.sessionRecovery.json('POST', config.newSignature.api, { label, image, certificate: { mode: 'issue' } })
          config.signature = kept.uuid
          meta.signatures = [{ uuid: kept.uuid, label: kept.label, primary: Boolean(kept.primary), active: true, image: `/api/signatures/${kept.uuid}/image` }]
          renderStrip()
          $('[data-signing-with]').textContent = `Signing with “${kept.label}”`
          // A reload now opens the page with this signature, not with the "no signature yet" link.
          history.replaceState(history.state, '', config.signWithUrl.replace(config.placeholder, encodeURIComponent(kept.uuid)))
          settle(true)
        } catch (error) {
          fieldError('form', `Not kept: ${error.message}`, null)
        } finally {
          save.disabled = false
          progressText.hidden = true
        }
      }
      // One list for adding and removing: a handler left behind would act on the next opening too.
      const listeners = () => [[form, 'change', onChange], [form, 'submit', onSubmit], [typed, 'input', onInput], [pad, 'pointerdown', clearErrors],
        [q('[data-clear]'), 'click', onClear], [q('[data-newsig-cancel]'), 'click', onCancel], [dialog, 'cancel', onCancel]]
      for (const [target, type, handler] of listeners()) target.addEventListener(type, handler)
      clearErrors()
      dialog.showModal()
      // The pad is sized once it is shown: a canvas in a closed dialog measures 0 × 0.
      if (!drawing) drawing = window.signatureDrawing.createPad(pad)
      showMode()
      q(mode() === 'draw' ? '[data-mode="draw"]' : '[data-mode="type"]').focus()
    })
  }

  window.addEventListener('resize', () => { if (meta) setZoom(zoom) })

  send(config.metaUrl, { headers: { accept: 'application/json' } })
    .then(json)
    .then((data) => {
      meta = data
      root.dataset.mode = meta.mode
      renderChips()
      renderPageSelect()
      renderStrip()
      if (meta.request && meta.request.status !== 'pending') say('info', `This request is ${meta.request.status}.`)
      goTo(1)
      setZoom(1)
    })
    .catch((error) => {
      canvas.replaceChildren()
      say('error', `The signer could not load: ${error.message}`)
    })
})()
