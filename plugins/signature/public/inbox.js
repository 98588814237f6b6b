// The inbox's Decline button: a <dialog> asks for the reason, then POSTs it as JSON to
// /api/signing-sessions/{id}/requests/{requestId}/decline (the URL is the button's data-decline).
(function () {
  'use strict'
  const dialog = document.querySelector('[data-decline-dialog]')
  if (!dialog) return
  const csrf = document.querySelector('meta[name="csrf-token"]')?.content ?? ''
  const form = dialog.querySelector('[data-decline-form]')
  const reason = dialog.querySelector('[data-decline-reason]')
  const error = dialog.querySelector('[data-decline-error]')
  const submit = dialog.querySelector('[data-decline-submit]')
  const status = document.querySelector('[data-inbox-status]')
  let opener = null

  function say(kind, text) {
    if (!status) return
    status.hidden = false
    status.className = `flash flash-${kind}`
    status.textContent = text
  }

  document.addEventListener('click', (event) => {
    const button = event.target.closest('[data-decline]')
    if (!button) return
    opener = button
    reason.value = ''
    error.hidden = true
    error.textContent = ''
    submit.disabled = false
    dialog.querySelector('[data-decline-document]').textContent = button.dataset.title || ''
    dialog.showModal()
    reason.focus()
  })

  dialog.querySelector('[data-decline-cancel]').addEventListener('click', () => dialog.close())

  form.addEventListener('submit', async (event) => {
    event.preventDefault()
    const text = reason.value.trim()
    if (!text) {
      error.textContent = 'Say why you decline.'
      error.hidden = false
      reason.focus()
      return
    }
    submit.disabled = true
    try {
      const response = await (window.sessionRecovery ? window.sessionRecovery.fetch : fetch)(opener.dataset.decline, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json', 'x-csrf-token': csrf },
        body: JSON.stringify({ reason: text }),
      })
      const body = await response.json().catch(() => ({}))
      if (!response.ok) throw new Error(body.message || `${response.status} ${response.statusText}`)
      const row = opener.closest('tr')
      const title = opener.dataset.title || 'The document'
      dialog.close()
      if (row) {
        row.dataset.declined = ''
        row.querySelectorAll('a[data-sign-link], [data-decline]').forEach((el) => el.remove())
        const badge = row.querySelector('.badge')
        if (badge) { badge.className = 'badge badge-gray'; badge.textContent = 'declined' }
      }
      say('success', `Declined: ${title}.`)
    } catch (failure) {
      error.textContent = `Could not decline: ${failure.message}`
      error.hidden = false
      submit.disabled = false
    }
  })

  dialog.addEventListener('close', () => {
    if (opener && document.contains(opener)) opener.focus()
  })
})()
