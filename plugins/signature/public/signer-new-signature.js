// The signer page while the user has no signature: draw (signature_pad) or type a name, keep it
// in the library through /api/signatures (a certificate issued for the user), then open the
// signer page with it. The drawing code is signature-drawing.js, shared with My signatures.
(function () {
  'use strict'
  const root = document.querySelector('[data-new-signature]')
  if (!root) return
  const config = JSON.parse(root.dataset.config)
  const $ = (selector) => root.querySelector(selector)
  const form = $('[data-form]')
  const canvas = $('[data-pad]')
  const typed = $('[data-typed]')
  const preview = $('[data-preview]')
  const drawing = window.signatureDrawing.createPad(canvas)

  const mode = () => form.elements.mode.value
  form.addEventListener('change', (event) => {
    if (event.target.name !== 'mode') return
    $('[data-draw]').hidden = mode() !== 'draw'
    $('[data-type]').hidden = mode() !== 'type'
    if (mode() === 'draw') drawing.fit()
    clearErrors()
  })
  const showPreview = () => { preview.textContent = typed.value.trim() }
  typed.addEventListener('input', showPreview)
  showPreview()
  $('[data-clear]').addEventListener('click', () => drawing.clear())
  // A stroke answers "Draw your signature first": the message goes.
  canvas.addEventListener('pointerdown', () => clearErrors())

  function fieldError(name, text, control) {
    const message = form.querySelector(`[data-error-for="${name}"]`)
    message.textContent = text
    message.hidden = false
    if (control) {
      control.setAttribute('aria-invalid', 'true')
      control.focus()
    }
  }
  function clearErrors() {
    form.querySelectorAll('[data-error-for]').forEach((message) => { message.hidden = true; message.textContent = '' })
    form.querySelectorAll('[aria-invalid]').forEach((control) => control.removeAttribute('aria-invalid'))
  }

  form.addEventListener('submit', async (event) => {
    event.preventDefault()
    clearErrors()
    const label = $('[data-label]').value.trim()
    if (!label) return fieldError('label', 'Give the signature a name.', $('[data-label]'))
    let image
    if (mode() === 'draw') {
      if (drawing.isEmpty()) return fieldError('pad', 'Draw your signature first.', canvas)
      image = drawing.image()
    } else {
      image = await window.signatureDrawing.typedImage(typed.value)
      if (!image) return fieldError('typed', 'Type your name first.', typed)
    }
    const save = $('[data-save]')
    save.disabled = true
    const status = $('[data-status]')
    status.hidden = false
    status.className = 'flash flash-info'
    status.textContent = 'Issuing your certificate…'
    try {
      // An ended session does not lose the drawing: sign in again, sent again (session-recovery.js).
      const kept = await window.sessionRecovery.json('POST', config.api, { label, image, certificate: { mode: 'issue' } })
      status.textContent = `Kept “${kept.label}” in My signatures. Opening the document…`
      window.location.assign(config.signWithUrl.replace(config.placeholder, encodeURIComponent(kept.uuid)))
    } catch (error) {
      status.hidden = true
      fieldError('form', `Not kept: ${error.message}`, null)
      save.disabled = false
    }
  })
})()
