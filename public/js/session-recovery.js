// When the session has ended (401) or the page's CSRF token no longer matches its session (403
// ERR_CSRF), the request is not lost: a fresh token is fetched (still signed in, e.g. after signing
// in again in another tab), or else a dialog signs the person in again right here, and the same
// request is sent again. The page, with whatever was typed or moved, stays as it was.
// htmx requests are caught here; page scripts call window.sessionRecovery.fetch instead of fetch.
(function () {
  'use strict'
  var template = document.getElementById('sign-in-again-template')
  if (!template) return
  var dialog, form, problem, password
  var pending = null

  /** The dialog enters the page only when needed. */
  function mountDialog () {
    if (dialog) return
    document.body.appendChild(template.content.cloneNode(true))
    dialog = document.getElementById('sign-in-again')
    form = dialog.querySelector('form')
    problem = dialog.querySelector('[data-sign-in-error]')
    password = form.elements.password
  }

  function setToken (token) {
    document.querySelector('meta[name="csrf-token"]').setAttribute('content', token)
    document.querySelectorAll('input[name="_csrf"]').forEach(function (input) { input.value = token })
  }

  /** The token of the session the browser has now, or null when it has none (signed out). */
  function freshToken () {
    return fetch('/dashboard', { headers: { accept: 'text/html' }, credentials: 'same-origin' }).then(function (response) {
      if (!response.ok || new URL(response.url).pathname === '/login') return null
      return response.text().then(function (html) {
        var match = /<meta name="csrf-token" content="([^"]+)">/.exec(html)
        return match ? match[1] : null
      })
    }, function () { return null })
  }

  /** Opens the dialog; resolves with a fresh token once signed in, or null if the person cancels. */
  function askToSignIn () {
    mountDialog()
    return new Promise(function (resolve) {
      var opener = document.activeElement
      problem.hidden = true
      password.value = ''
      password.removeAttribute('aria-invalid')
      function settle (token) {
        form.removeEventListener('submit', onSubmit)
        dialog.removeEventListener('cancel', onCancel)
        dialog.querySelector('[data-sign-in-cancel]').removeEventListener('click', onCancel)
        if (dialog.open) dialog.close()
        if (opener && document.contains(opener)) opener.focus()
        resolve(token)
      }
      function onCancel (event) { event.preventDefault(); settle(null) }
      function onSubmit (event) {
        event.preventDefault()
        var button = form.querySelector('[type="submit"]')
        button.disabled = true
        fetch('/api/auth/login', {
          method: 'POST',
          credentials: 'same-origin',
          headers: { 'content-type': 'application/json', accept: 'application/json' },
          body: JSON.stringify({ email: form.elements.email.value, password: password.value })
        }).then(function (response) {
          if (response.ok) return freshToken()
          return response.json().catch(function () { return {} }).then(function (body) {
            throw new Error(body.message || 'Could not sign in.')
          })
        }).then(function (token) {
          if (!token) throw new Error('Signed in, but the page could not be renewed. Reload the page.')
          setToken(token)
          settle(token)
        }).catch(function (error) {
          problem.textContent = error.message
          problem.hidden = false
          password.setAttribute('aria-invalid', 'true')
          password.focus()
        }).finally(function () { button.disabled = false })
      }
      form.addEventListener('submit', onSubmit)
      dialog.addEventListener('cancel', onCancel)
      dialog.querySelector('[data-sign-in-cancel]').addEventListener('click', onCancel)
      dialog.showModal()
      password.focus()
    })
  }

  /** One recovery at a time: requests that fail meanwhile wait for the same one. */
  function recover (signedOut) {
    if (!pending) {
      pending = (signedOut ? Promise.resolve(null) : freshToken()).then(function (token) {
        if (token) { setToken(token); return token }
        return askToSignIn()
      }).finally(function () { pending = null })
    }
    return pending
  }

  function expired (status, code) {
    return status === 401 || (status === 403 && code === 'ERR_CSRF')
  }

  document.body.addEventListener('htmx:beforeOnLoad', function (event) {
    var xhr = event.detail.xhr
    if (!expired(xhr.status, xhr.getResponseHeader('X-Error-Code'))) return
    // Nothing of this answer is applied (no redirect, no swap): the same request goes again.
    event.preventDefault()
    var config = event.detail.requestConfig
    var elt = event.detail.elt
    recover(xhr.status === 401).then(function (token) {
      if (!token) return
      htmx.ajax(config.verb.toUpperCase(), config.path, { source: elt, target: event.detail.target })
    })
  })

  window.sessionRecovery = {
    /**
     * A JSON call to the app's /api through fetch() below: the answer's `data`, null for 204, or an
     * Error carrying the API's message.
     */
    json: function (method, url, body) {
      return window.sessionRecovery.fetch(url, {
        method: method,
        credentials: 'same-origin',
        headers: body ? { accept: 'application/json', 'content-type': 'application/json' } : { accept: 'application/json' },
        body: body ? JSON.stringify(body) : undefined,
      }).then(function (response) {
        if (response.status === 204) return null
        return response.json().catch(function () { return {} }).then(function (payload) {
          if (!response.ok) throw new Error(payload.message || response.status + ' ' + response.statusText)
          return payload.data
        })
      })
    },
    /**
     * fetch() that survives an ended session: on 401 or 403 ERR_CSRF it recovers and sends the
     * request once more, with the renewed token in x-csrf-token.
     */
    fetch: function (url, init) {
      init = init || {}
      return fetch(url, init).then(function (response) {
        if (response.status !== 401 && response.status !== 403) return response
        return response.clone().json().catch(function () { return {} }).then(function (body) {
          if (!expired(response.status, body.code)) return response
          return recover(response.status === 401).then(function (token) {
            if (!token) return response
            var headers = new Headers(init.headers || {})
            headers.set('x-csrf-token', token)
            return fetch(url, Object.assign({}, init, { headers: headers }))
          })
        })
      })
    }
  }
})()
