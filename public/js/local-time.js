// <time data-local-time datetime="ISO"> reads in the person's own time zone and language: the
// server writes UTC (it does not know where the reader is), this script rewrites the words.
(function () {
  'use strict'
  const format = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' })
  function localize(root) {
    root.querySelectorAll('time[data-local-time]').forEach((element) => {
      const at = new Date(element.getAttribute('datetime'))
      if (Number.isNaN(at.getTime())) return
      element.textContent = format.format(at)
      element.title = element.getAttribute('datetime')
    })
  }
  localize(document)
  // Parts htmx swaps in later carry their own times.
  document.addEventListener('htmx:afterSwap', (event) => localize(event.target))
})()
