// Messages in the page's #flash region are toasts: each has a close button; a success or an
// information goes by itself after a while (paused while the pointer or the focus is on it), an
// error stays until it is closed, since it may need reading twice.
(function () {
  'use strict'
  var region = document.getElementById('flash')
  if (!region) return
  var STAY_MS = 10000

  function dismiss (toast) {
    if (!toast.parentNode) return
    // The focus was on its close button: keep it in the page, not on <body>.
    var hadFocus = toast.contains(document.activeElement)
    toast.remove()
    if (hadFocus) document.getElementById('main').focus()
  }

  function arm (toast) {
    if (toast.dataset.armed || toast.dataset.toast === 'error') return
    toast.dataset.armed = 'true'
    var timer = null
    function start () { timer = setTimeout(function () { dismiss(toast) }, STAY_MS) }
    function stop () { clearTimeout(timer) }
    toast.addEventListener('mouseenter', stop)
    toast.addEventListener('mouseleave', start)
    toast.addEventListener('focusin', stop)
    toast.addEventListener('focusout', start)
    start()
  }

  function armAll () { region.querySelectorAll('[data-toast]').forEach(arm) }

  document.addEventListener('click', function (event) {
    var close = event.target.closest('[data-toast-close]')
    if (close) dismiss(close.closest('.flash'))
  })
  new MutationObserver(armAll).observe(region, { childList: true })
  armAll()
})()
