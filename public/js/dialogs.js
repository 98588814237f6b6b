// The confirmation dialog: the server swaps a confirm fragment into <dialog id="modal">, this
// opens it as a modal (focus trapped, Esc closes), and closes it when the server says so.
(function () {
  'use strict'
  var modal = document.getElementById('modal')
  if (!modal) return
  var opener = null

  function close () {
    if (modal.open) modal.close()
  }

  document.body.addEventListener('htmx:beforeRequest', function (event) {
    if (event.detail.target === modal) opener = event.detail.elt
  })
  document.body.addEventListener('htmx:afterSwap', function (event) {
    if (event.detail.target === modal && !modal.open) modal.showModal()
  })
  document.body.addEventListener('modal-close', close)
  modal.addEventListener('click', function (event) {
    var cancel = event.target.closest('[data-close-modal]')
    // A click on the backdrop (the dialog itself, outside its content) also cancels.
    if (cancel || event.target === modal) {
      event.preventDefault()
      close()
    }
  })
  modal.addEventListener('close', function () {
    modal.innerHTML = ''
    if (opener && document.contains(opener)) opener.focus()
    opener = null
  })

  function el (tag, className, text) {
    var node = document.createElement(tag)
    if (className) node.className = className
    if (text !== undefined) node.textContent = text
    return node
  }

  // The same dialog for page scripts, instead of window.confirm/prompt (unstyled, and blocked in
  // some embedded browsers). Both answer a promise: confirm -> true/false, prompt -> text or null.
  // Text is set with textContent: a label the user typed is never parsed as HTML.
  function ask (options, withInput) {
    return new Promise(function (resolve) {
      if (modal.open) modal.close()
      opener = document.activeElement
      var form = el('form', 'confirm')
      form.method = 'dialog'
      if (options.danger) {
        var icon = el('div', 'confirm-icon')
        icon.setAttribute('aria-hidden', 'true')
        // The alert icon of the app's set (core/views/components/icon.eta), drawn the same way.
        var svg = document.createElementNS('http://www.w3.org/2000/svg', 'svg')
        svg.setAttribute('viewBox', '0 0 24 24')
        svg.setAttribute('width', '16')
        svg.setAttribute('height', '16')
        svg.setAttribute('class', 'icon')
        svg.setAttribute('fill', 'none')
        svg.setAttribute('stroke', 'currentColor')
        svg.setAttribute('stroke-width', '2')
        svg.setAttribute('stroke-linecap', 'round')
        ;['M12 8v4', 'M12 16h.01'].forEach(function (d) {
          var line = document.createElementNS('http://www.w3.org/2000/svg', 'path')
          line.setAttribute('d', d)
          svg.append(line)
        })
        var ring = document.createElementNS('http://www.w3.org/2000/svg', 'circle')
        ring.setAttribute('cx', '12'); ring.setAttribute('cy', '12'); ring.setAttribute('r', '9')
        svg.prepend(ring)
        icon.append(svg)
        form.append(icon)
      }
      var title = el('h2', 'confirm-title', options.title)
      title.id = 'modal-title'
      form.append(title)
      if (options.message) form.append(el('p', 'muted', options.message))
      var input = null
      if (withInput) {
        var field = el('label', 'field dialog-field')
        field.append(el('span', 'field-label', options.label || 'Name'))
        input = el('input', 'input')
        input.type = 'text'
        input.required = true
        input.maxLength = options.maxLength || 200
        input.value = options.value || ''
        input.autocomplete = 'off'
        field.append(input)
        form.append(field)
      }
      var actions = el('div', 'confirm-actions')
      var cancel = el('button', 'button button-secondary', options.cancelLabel || 'Cancel')
      cancel.type = 'button'
      cancel.setAttribute('data-close-modal', '')
      var ok = el('button', 'button ' + (options.danger ? 'button-danger-solid' : 'button-primary'), options.confirmLabel || 'OK')
      ok.type = 'submit'
      ok.setAttribute('data-dialog-confirm', '')
      actions.append(cancel, ok)
      form.append(actions)
      var answered = false
      form.addEventListener('submit', function (event) {
        event.preventDefault()
        if (input && !input.value.trim()) { input.setAttribute('aria-invalid', 'true'); input.focus(); return }
        answered = true
        var value = input ? input.value.trim() : true
        modal.close()
        resolve(value)
      })
      modal.addEventListener('close', function () { if (!answered) resolve(withInput ? null : false) }, { once: true })
      modal.replaceChildren(form)
      modal.showModal()
      // The safe choice has the focus for a confirmation; the text for a prompt.
      if (input) { input.focus(); input.select() } else cancel.focus()
    })
  }

  // An htmx element with data-confirm-title asks in this dialog before its request is sent (a
  // destructive action that is not a delete fragment of the server's): yes sends it, no drops it.
  document.body.addEventListener('htmx:confirm', function (event) {
    var elt = event.detail.elt
    var title = elt && elt.getAttribute('data-confirm-title')
    if (!title) return
    event.preventDefault()
    ask({
      title: title,
      message: elt.getAttribute('data-confirm-message') || '',
      confirmLabel: elt.getAttribute('data-confirm-label') || 'OK',
      cancelLabel: elt.getAttribute('data-confirm-cancel') || 'Cancel',
      danger: true
    }, false).then(function (yes) { if (yes) event.detail.issueRequest(true) })
  })

  window.appDialog = {
    confirm: function (options) { return ask(options, false) },
    prompt: function (options) { return ask(options, true) }
  }
})()
