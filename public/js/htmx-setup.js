// Every htmx request carries the page's CSRF token and asks for HTML (error pages included).
(function () {
  'use strict'
  // Read at each request: session-recovery.js renews the meta tag after a new sign-in.
  function token () {
    var meta = document.querySelector('meta[name="csrf-token"]')
    return meta ? meta.getAttribute('content') : ''
  }

  htmx.config.historyRestoreAsHxRequest = false
  // Errors are swapped too: the server retargets them into #flash (HX-Retarget), and a form with
  // invalid fields comes back as 422 with the messages next to the fields.
  htmx.config.responseHandling = [
    { code: '204', swap: false },
    { code: '[23]..', swap: true },
    { code: '422', swap: true },
    { code: '[45]..', swap: true, error: true }
  ]

  document.body.addEventListener('htmx:configRequest', function (event) {
    event.detail.headers['x-csrf-token'] = token()
    event.detail.headers['Accept'] = 'text/html'
  })

  // A form that comes back with invalid fields (422): the focus goes to the first of them, whose
  // aria-describedby reads its message; otherwise the focus would be lost with the swapped form.
  document.body.addEventListener('htmx:afterSettle', function (event) {
    if (!event.detail.xhr || event.detail.xhr.status !== 422) return
    var first = document.querySelector('#main [aria-invalid="true"]')
    if (first) first.focus()
  })

  // "Clear search" swaps the table only: the search box and the filters above it are emptied too,
  // so the controls and the list agree.
  document.body.addEventListener('click', function (event) {
    if (!event.target.closest('[data-clear-search]')) return
    document.querySelectorAll('form[role="search"] input[name="search"]').forEach(function (input) { input.value = '' })
    document.querySelectorAll('form[role="search"] select[data-filter]').forEach(function (select) { select.value = '' })
  })

  // Expose the token to page scripts (fetch) without them reading the DOM themselves.
  window.csrfToken = token
})()
