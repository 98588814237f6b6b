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
})()
