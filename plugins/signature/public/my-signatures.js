// "My signatures": the user's signatures over /api/signatures, a signature_pad canvas, and links
// to the signer page for the records they can sign.
(function () {
  'use strict'
  const root = document.querySelector('[data-my-signatures]')
  if (!root) return
  const config = JSON.parse(root.dataset.config)
  const $ = (selector) => root.querySelector(selector)
  const status = $('[data-status]')
  const list = $('[data-list]')
  const form = $('[data-create]')
  const canvas = $('[data-pad]')
  let signatures = []

  function say(kind, text) {
    status.hidden = false
    status.className = `flash flash-${kind}`
    status.textContent = text
  }

  // An ended session does not lose the drawing: sign in again, sent again (session-recovery.js).
  const api = (method, url, body) => window.sessionRecovery.json(method, url, body)

  // --- the drawing pad (signature-drawing.js, shared with the signer page) ---
  const drawing = window.signatureDrawing.createPad(canvas)
  const pad = drawing.pad
  const fitPad = drawing.fit
  $('[data-clear]').addEventListener('click', () => pad.clear())

  form.addEventListener('change', (event) => {
    if (event.target.name === 'imageMode') {
      $('[data-draw]').hidden = event.target.value !== 'draw'
      $('[data-upload]').hidden = event.target.value !== 'upload'
      if (event.target.value === 'draw') fitPad()
    }
    if (event.target.name === 'certMode') $('[data-p12]').hidden = event.target.value !== 'upload'
  })

  function readFile(file, as) {
    return new Promise((resolve, reject) => {
      const reader = new FileReader()
      reader.onload = () => resolve(reader.result)
      reader.onerror = () => reject(new Error('The file could not be read'))
      if (as === 'dataUrl') reader.readAsDataURL(file)
      else reader.readAsArrayBuffer(file)
    })
  }

  /** A message next to what it is about: the control is marked invalid, described by it, and focused. */
  function fieldError(name, text, control) {
    const message = form.querySelector(`[data-error-for="${name}"]`)
    message.textContent = text
    message.hidden = false
    if (control) {
      control.setAttribute('aria-invalid', 'true')
      control.setAttribute('aria-describedby', message.id)
      control.focus()
    }
  }

  function clearErrors() {
    form.querySelectorAll('[data-error-for]').forEach((message) => { message.hidden = true; message.textContent = '' })
    form.querySelectorAll('[aria-invalid]').forEach((control) => { control.removeAttribute('aria-invalid'); control.removeAttribute('aria-describedby') })
  }

  form.addEventListener('submit', async (event) => {
    event.preventDefault()
    clearErrors()
    const label = $('[data-label]').value.trim()
    if (!label) return fieldError('label', 'Give the signature a name.', $('[data-label]'))
    const imageMode = form.elements.imageMode.value
    const certMode = form.elements.certMode.value
    let image
    if (imageMode === 'draw') {
      if (pad.isEmpty()) return fieldError('pad', 'Draw your signature first.', canvas)
      image = drawing.image()
    } else {
      const file = $('[data-image-file]').files[0]
      if (!file) return fieldError('image', 'Choose a PNG or JPEG image.', $('[data-image-file]'))
      image = await readFile(file, 'dataUrl')
    }
    let certificate = { mode: 'issue' }
    if (certMode === 'upload') {
      const file = $('[data-p12-file]').files[0]
      if (!file) return fieldError('p12', 'Choose a PKCS#12 file.', $('[data-p12-file]'))
      const bytes = new Uint8Array(await readFile(file, 'buffer'))
      let binary = ''
      for (const byte of bytes) binary += String.fromCharCode(byte)
      certificate = { mode: 'upload', p12: btoa(binary), password: $('[data-p12-password]').value }
    }
    const save = $('[data-save]')
    save.disabled = true
    save.setAttribute('aria-busy', 'true')
    say('info', certMode === 'issue' ? 'Issuing your certificate…' : 'Checking the certificate…')
    try {
      const created = await api('POST', config.api, { label, image, certificate })
      say('success', `Saved “${created.label}”.`)
      form.reset()
      pad.clear()
      $('[data-draw]').hidden = false
      $('[data-upload]').hidden = true
      $('[data-p12]').hidden = true
      await load()
    } catch (error) {
      status.hidden = true
      fieldError('form', `Not saved: ${error.message}`, null)
    } finally {
      save.disabled = false
      save.removeAttribute('aria-busy')
    }
  })

  // --- the list ---
  function button(text, kind, onClick, data) {
    const b = document.createElement('button')
    b.type = 'button'
    b.className = `button ${kind}`
    b.textContent = text
    b.dataset.action = data
    b.addEventListener('click', onClick)
    return b
  }

  /** "CN=Sam Staff,O=Workspace" -> "Sam Staff": people read the name, not a distinguished name. */
  function commonName(subject) {
    if (!subject) return 'an unnamed holder'
    const match = /(?:^|[,/]\s*)CN=((?:\\.|[^,/])+)/i.exec(subject)
    return match ? match[1].replace(/\\(.)/g, '$1').trim() : subject
  }

  function card(sig) {
    const el = document.createElement('article')
    el.className = `mysig-card${sig.status === 'active' ? '' : ' is-revoked'}`
    el.dataset.signature = sig.uuid
    const img = document.createElement('img')
    img.src = `${config.api}/${sig.uuid}/image`
    img.alt = `Signature “${sig.label}”`
    const title = document.createElement('h3')
    title.textContent = sig.label
    if (sig.primary) { const b = document.createElement('span'); b.className = 'badge'; b.textContent = 'primary'; title.append(b) }
    if (sig.status !== 'active') { const b = document.createElement('span'); b.className = 'badge badge-gray'; b.textContent = sig.status; title.append(b) }
    const info = document.createElement('p')
    info.className = 'mysig-meta'
    const expires = sig.certificate.notAfter ? new Date(sig.certificate.notAfter).toLocaleDateString() : '?'
    info.textContent = `${sig.certificate.source === 'uploaded' ? 'Uploaded' : 'Issued'} certificate for ${commonName(sig.certificate.subject)} · valid until ${expires}`
    el.append(img, title, info)
    if (sig.status === 'active') {
      const actions = document.createElement('div')
      actions.className = 'mysig-actions'
      actions.append(button('Rename', 'button-secondary', async () => {
        const label = await window.appDialog.prompt({ title: `Rename “${sig.label}”`, label: 'New name', value: sig.label, confirmLabel: 'Rename', maxLength: 120 })
        if (!label || label === sig.label) return
        try { await api('PATCH', `${config.api}/${sig.uuid}`, { label: label.trim() }); say('success', 'Renamed.'); await load() } catch (e) { say('error', e.message) }
      }, 'rename'))
      if (!sig.primary) {
        actions.append(button('Set primary', 'button-secondary', async () => {
          try {
            // One primary at a time: the others are cleared first.
            for (const other of signatures.filter((s) => s.primary && s.uuid !== sig.uuid)) await api('PATCH', `${config.api}/${other.uuid}`, { primary: false })
            await api('PATCH', `${config.api}/${sig.uuid}`, { primary: true })
            say('success', `“${sig.label}” is now your primary signature.`)
            await load()
          } catch (e) { say('error', e.message) }
        }, 'primary'))
      }
      actions.append(button('Revoke', 'button-danger', async () => {
        const sure = await window.appDialog.confirm({
          title: `Revoke “${sig.label}”?`,
          message: `Documents already signed with it stay signed; it cannot be used again.${sig.primary ? ' Your oldest other signature becomes the primary one.' : ''}`,
          confirmLabel: 'Revoke', danger: true,
        })
        if (!sure) return
        try { await api('DELETE', `${config.api}/${sig.uuid}`); say('success', 'Revoked.'); await load() } catch (e) { say('error', e.message) }
      }, 'revoke'))
      el.append(actions)
    }
    return el
  }

  async function load() {
    try {
      signatures = await api('GET', config.api)
    } catch (error) {
      list.textContent = ''
      return say('error', `Your signatures could not be loaded: ${error.message}`)
    }
    list.replaceChildren(...(signatures.length ? signatures.map(card) : [Object.assign(document.createElement('p'), { className: 'muted', textContent: 'No signatures yet: create one below.' })]))
    await loadRecords()
  }

  /** A slot's label from the record's signatories (bound slots), else its key. */
  function slotLabel(template, record, slot) {
    const bound = (record.signatories || []).find((s) => s.slot === slot)
    return bound ? bound.label : slot
  }

  // --- documents this user can sign ---
  async function loadRecords() {
    const box = $('[data-records]')
    const active = signatures.filter((s) => s.status === 'active')
    const use = active.find((s) => s.primary) ?? active[0]
    const groups = []
    for (const template of config.templates) {
      try {
        const records = await api('GET', `${config.signables}${encodeURIComponent(template.key)}`)
        if (records.length) groups.push({ template, records })
      } catch { /* a template the user cannot list: nothing to show */ }
    }
    if (!groups.length) { box.replaceChildren(Object.assign(document.createElement('p'), { className: 'muted', textContent: 'Nothing is waiting for your signature.' })); return }
    const nodes = []
    if (!use) nodes.push(Object.assign(document.createElement('p'), { className: 'muted', textContent: 'Create a signature above to sign these documents.' }))
    for (const { template, records } of groups) {
      const h = document.createElement('h3')
      h.className = 'field-label'
      h.textContent = template.label
      const ul = document.createElement('ul')
      ul.className = 'mysig-records'
      for (const record of records) {
        const li = document.createElement('li')
        li.dataset.record = record.id
        const text = document.createElement('div')
        const title = document.createElement('span')
        title.textContent = record.title
        text.append(title)
        // The latest signing of each slot; the user's own decides between "Sign" and "Sign again".
        const latest = new Map((record.signed || []).map((s) => [s.slot, s]))
        const mine = [...latest.values()].filter((s) => s.signer.id === config.me)
        for (const s of latest.values()) {
          const line = document.createElement('p')
          line.className = 'mysig-meta'
          line.dataset.signedSlot = s.slot
          const who = s.signer.id === config.me ? 'you' : (s.signer.name || s.signer.id)
          line.textContent = `${slotLabel(template, record, s.slot)}: signed on ${new Date(s.signedAt).toLocaleString()} by ${who}${s.version > 1 ? ` (version ${s.version})` : ''}`
          text.append(line)
        }
        li.append(text)
        const actions = document.createElement('div')
        actions.className = 'mysig-actions'
        for (const s of mine) {
          if (!s.downloadUrl) continue
          const download = document.createElement('a')
          download.className = 'button button-secondary'
          download.textContent = 'Download'
          download.href = s.downloadUrl
          download.dataset.download = s.uuid
          actions.append(download)
          if (config.verifyUrl) {
            const verify = document.createElement('a')
            verify.className = 'button button-secondary'
            verify.textContent = 'Verify'
            verify.href = config.verifyUrl.replace(config.placeholder.signatureUuid, encodeURIComponent(s.uuid))
            verify.dataset.verifyLink = s.uuid
            actions.append(verify)
          }
        }
        // Only what the signer page will let this user sign (the server's own rule, `record.signable`):
        // nothing for a record where all their slots are someone else's or were signed in a session.
        const signable = record.signable || []
        if (!signable.length && mine.some((s) => s.inSession)) {
          const note = document.createElement('p')
          note.className = 'mysig-meta'
          note.dataset.signedInSession = ''
          note.textContent = 'Signed in a signing session, in one document with the other signatures. To sign it again, it must be sent for signature again.'
          text.append(note)
        }
        if (signable.length) {
          // Without a signature yet, 'new': the signer page lets the user draw or type one there.
          const a = document.createElement('a')
          a.className = 'button button-secondary'
          a.textContent = signable.every((slot) => latest.has(slot) && latest.get(slot).signer.id === config.me) ? 'Sign again' : 'Sign'
          a.href = `${config.signerUrl.replace(config.placeholder.templateKey, encodeURIComponent(template.key)).replace(config.placeholder.signatureUuid, use ? use.uuid : config.newSignature)}?signable=${encodeURIComponent(record.id)}`
          a.dataset.signLink = `${template.key}/${record.id}`
          actions.append(a)
        }
        if (config.sendUrl) {
          const send = document.createElement('a')
          send.className = 'button button-secondary'
          send.textContent = 'Send for signature'
          send.href = config.sendUrl.replace(encodeURIComponent(config.placeholder.templateKey), encodeURIComponent(template.key)).replace('RECORD_ID', encodeURIComponent(record.id))
          send.dataset.sendLink = `${template.key}/${record.id}`
          actions.append(send)
        }
        li.append(actions)
        ul.append(li)
      }
      nodes.push(h, ul)
    }
    box.replaceChildren(...nodes)
  }

  load()
})()
