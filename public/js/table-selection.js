// The checkbox column of a resource table: "select all on this page", and the bulk bar that says
// how many rows are chosen and is shown only while some are. The server checks every id again.
(function () {
  'use strict'
  function update (table) {
    var rows = table.querySelectorAll('[data-select-row]')
    var chosen = table.querySelectorAll('[data-select-row]:checked').length
    var all = table.querySelector('[data-select-all]')
    if (all) {
      all.checked = rows.length > 0 && chosen === rows.length
      all.indeterminate = chosen > 0 && chosen < rows.length
    }
    var bar = table.querySelector('[data-bulk-bar]')
    if (!bar) return
    bar.classList.toggle('is-active', chosen > 0)
    bar.querySelector('[data-bulk-count]').textContent = chosen === 0 ? 'No rows selected' : chosen === 1 ? '1 row selected' : chosen + ' rows selected'
    bar.querySelectorAll('[data-bulk-delete], [data-bulk-action]').forEach(function (button) { button.disabled = chosen === 0 })
  }

  document.addEventListener('change', function (event) {
    var table = event.target.closest('[data-table]')
    if (!table) return
    if (event.target.matches('[data-select-all]')) {
      table.querySelectorAll('[data-select-row]').forEach(function (box) { box.checked = event.target.checked })
    }
    if (event.target.matches('[data-select-all], [data-select-row]')) update(table)
  })

  // A table swapped after a delete takes the button that had the focus with it: the focus goes to
  // the page's main region instead of being lost on <body>, so Tab goes on from the page.
  document.body.addEventListener('htmx:afterSettle', function (event) {
    if (!event.detail.target || !event.detail.target.matches || !event.detail.target.matches('[data-table]')) return
    var active = document.activeElement
    if (active && active !== document.body && document.contains(active)) return
    var main = document.getElementById('main')
    if (main) main.focus({ preventScroll: true })
  })
})()
