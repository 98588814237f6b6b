// Signing a document (Alpine.js component `documentSigning`), for two kinds of signer:
// - 'link': someone without an account, at /sign/<token>: "Send me a code", the code, then the
//   document (the /api/sign-links/<token> calls; the code's cookie opens the pages);
// - 'account': a signed-in person whose turn it is (the inbox links here), who signs with a
//   signature of their library or makes one here.
// Both read the whole document, page by page, with their own fields highlighted, before Sign is
// enabled (the end of the last page must have been on screen), then draw or type a signature.
// Markup: plugins/signature/views/document-sign.eta; attribute expressions are property reads and
// method calls only (Alpine's CSP build evaluates nothing else).
import { cleanCode, fieldCaption as captionOf, filledForYou, initialsOf, overlayStyle as overlayOf, refusalFor, signBlocker, typedFields as typedFieldsOf, typedValues } from './document-signing-model.js'
import { mountComponent } from './mount-component.js'

function csrfToken () {
  return document.querySelector('meta[name="csrf-token"]')?.getAttribute('content') ?? ''
}

async function call (url, options = {}) {
  const response = await fetch(url, {
    credentials: 'same-origin',
    ...options,
    headers: { accept: 'application/json', 'x-csrf-token': csrfToken(), ...(options.body ? { 'content-type': 'application/json' } : {}) },
  })
  if (response.status === 204) return null
  const body = await response.json().catch(() => ({}))
  if (!response.ok) {
    const error = new Error(body.message || `The server answered ${response.status}`)
    error.code = body.code
    throw error
  }
  return body.data ?? body
}

function signing (config) {
  let pad = null
  return () => ({
    state: config.mode === 'link' ? 'loading' : 'document',
    info: config.mode === 'link' ? null : config.info,
    code: '',
    busy: false,
    error: '',
    endedText: '',
    notice: '',
    readToEnd: false,
    sigMode: 'type',
    typedName: config.mode === 'link' ? '' : (config.info?.signer?.name ?? ''),
    drawn: false,
    librarySignatures: config.signatures ?? [],
    chosen: config.signatures?.[0]?.uuid ?? 'new',
    values: {},
    announcement: '',
    declineReason: '',

    async init () {
      if (config.mode === 'account') {
        this.$nextTick(() => this.watchTheEnd())
        return
      }
      try {
        this.open(await call(config.api))
      } catch (error) {
        if (error.code === 'ERR_SIGN_LINK_UNVERIFIED') this.state = 'start'
        else this.refuse(error)
      }
    },

    // ---- States (method names for the markup)
    isLoading () { return this.state === 'loading' },
    isStart () { return this.state === 'start' },
    isCode () { return this.state === 'code' },
    isDocument () { return this.state === 'document' },
    isDone () { return this.state === 'done' },
    isEnded () { return this.state === 'ended' },
    isDeclined () { return this.state === 'declined' },
    isLink () { return config.mode === 'link' },
    isAccount () { return config.mode === 'account' },
    hasError () { return this.error !== '' },

    /** A refusal: the link is done for, back to the start, or a message by the form. */
    refuse (error) {
      const said = refusalFor(error.code, error.message)
      if (said.ends) {
        this.state = 'ended'
        this.endedText = said.text
        this.focusLater('[data-ended-heading]')
        return
      }
      if (said.restart && config.mode === 'link') {
        this.state = 'start'
        this.code = ''
      }
      this.error = said.text
      this.focusLater('[data-error]')
    },
    focusLater (selector) {
      this.$nextTick(() => this.$root.querySelector(selector)?.focus())
    },

    // ---- The code (link only)
    async sendCode () {
      if (this.busy) return
      this.busy = true
      this.error = ''
      try {
        await call(`${config.api}/code`, { method: 'POST', body: '{}' })
        const again = this.state === 'code'
        this.state = 'code'
        this.code = ''
        this.notice = again ? 'A new code is on its way; the one before no longer works.' : ''
        this.focusLater('[data-code-input]')
      } catch (error) {
        this.refuse(error)
      } finally {
        this.busy = false
      }
    },
    typeCode (event) {
      this.code = cleanCode(event.target.value)
      event.target.value = this.code
    },
    async verify () {
      if (this.busy) return
      if (this.code.length !== 6) {
        this.error = 'Type the six digits of the code from the e-mail.'
        this.focusLater('[data-code-input]')
        return
      }
      this.busy = true
      this.error = ''
      try {
        this.open(await call(`${config.api}/verify`, { method: 'POST', body: JSON.stringify({ code: this.code }) }))
      } catch (error) {
        this.refuse(error)
      } finally {
        this.busy = false
      }
    },
    codeInvalid () { return this.hasError() && this.isCode() ? 'true' : 'false' },

    /** The document, with this signer's fields; Sign waits until its end has been on screen. */
    open (info) {
      this.info = info
      this.typedName = info.signer?.name ?? ''
      this.state = 'document'
      this.announcement = `${info.title}: ${info.pages.length === 1 ? 'one page' : `${info.pages.length} pages`}. Read it to the end, then sign below it.`
      this.$nextTick(() => {
        this.$root.querySelector('[data-document-heading]')?.focus()
        this.watchTheEnd()
      })
    },
    watchTheEnd () {
      const end = this.$root.querySelector('[data-document-end]')
      if (!end) return
      const seen = new IntersectionObserver((entries) => {
        if (!entries.some((e) => e.isIntersecting)) return
        seen.disconnect()
        this.readToEnd = true
        this.announcement = 'You have reached the end of the document. You can sign it now.'
      })
      seen.observe(end)
    },

    // ---- The document
    title () { return this.info?.title ?? '' },
    signerName () { return this.info?.signer?.name ?? '' },
    signerEmail () { return this.info?.signer?.email ?? '' },
    message () { return this.info?.message ?? '' },
    hasMessage () { return Boolean(this.info?.message) },
    pages () { return this.info?.pages ?? [] },
    pageCount () { return this.pages().length },
    pageUrl (page) { return config.pageUrl.replace('__page__', String(page.page)) },
    pageAlt (page) { return `Page ${page.page} of ${this.pageCount()} of ${this.title()}` },
    pageLabel (page) { return `Page ${page.page} of ${this.pageCount()}` },
    pageRatio (page) { return `aspect-ratio: ${page.width} / ${page.height}` },
    fieldsOn (page) { return (this.info?.fields ?? []).filter((f) => f.page === page.page) },
    fieldCaption (field) { return captionOf(field) },
    filledText () { return filledForYou(this.info?.fields ?? [], this.signerName()) },
    fieldClass (field) { return `sign-field sign-field-${field.type}` },
    overlayStyle (field, page) { return overlayOf(field, page) },
    fieldCountText () {
      const n = this.info?.fields.length ?? 0
      return n === 1 ? 'one field' : `${n} fields`
    },
    documentUrl () { return config.documentUrl },

    // ---- Typed fields (initials, text)
    typedFields () { return typedFieldsOf(this.info?.fields ?? []) },
    hasTypedFields () { return this.typedFields().length > 0 },
    typedLabel (field) {
      return field.type === 'initials' ? `Your initials (page ${field.page})` : `${field.label || 'Text'} (page ${field.page})`
    },
    typedPlaceholder (field) { return field.type === 'initials' ? initialsOf(this.signerName()) : '' },
    typedRequired (field) { return field.type === 'text' },
    valueOf (field) { return this.values[field.id] ?? '' },
    setValue (field, event) { this.values = { ...this.values, [field.id]: event.target.value } },
    typedInputId (field) { return `sign-typed-${field.id}` },

    // ---- The signature
    hasLibrary () { return this.librarySignatures.length > 0 },
    makesNew () { return this.chosen === 'new' },
    chooseSignature (event) {
      this.chosen = event.target.value
      if (this.makesNew()) this.$nextTick(() => this.preparePad())
    },
    isChosen (signature) { return this.chosen === signature.uuid },
    isDraw () { return this.sigMode === 'draw' },
    isType () { return this.sigMode === 'type' },
    setMode (event) {
      this.sigMode = event.target.value
      if (this.isDraw()) this.$nextTick(() => this.preparePad())
    },
    preparePad () {
      const canvas = this.$root.querySelector('[data-pad]')
      if (!canvas || !canvas.offsetWidth) return
      if (pad) {
        pad.fit()
        return
      }
      pad = window.signatureDrawing.createPad(canvas)
      pad.pad.addEventListener('endStroke', () => { this.drawn = !pad.isEmpty() })
    },
    clearPad () {
      pad?.clear()
      this.drawn = false
    },
    typedStyleText () { return this.typedName.trim() || ' ' },
    hasSignature () {
      if (config.mode === 'account' && !this.makesNew()) return true
      return this.isDraw() ? this.drawn : this.typedName.trim().length > 0
    },

    // ---- Sign
    blocker () {
      return signBlocker({ readToEnd: this.readToEnd, hasSignature: this.hasSignature(), fields: this.info?.fields ?? [], values: this.values })
    },
    cannotSign () { return this.busy || this.blocker() !== '' },
    signLabel () { return this.busy ? 'Signing…' : 'Sign the document' },
    async sign () {
      if (this.cannotSign()) return
      this.busy = true
      this.error = ''
      this.notice = 'Signing: the signature is made with a certificate issued for you; this takes a few seconds.'
      const fields = typedValues(this.info.fields, this.values)
      try {
        if (config.mode === 'link') {
          const signature = this.isDraw() ? { image: pad.image() } : { typed: this.typedName.trim() }
          await call(`${config.api}/finalize`, { method: 'POST', body: JSON.stringify({ signature, ...(Object.keys(fields).length ? { fields } : {}) }) })
        } else {
          const uuid = this.makesNew() ? await this.keepNewSignature() : this.chosen
          await call(config.signUrl, { method: 'POST', body: JSON.stringify({ signature: uuid, ...(Object.keys(fields).length ? { fields } : {}) }) })
        }
        this.state = 'done'
        this.notice = ''
        this.focusLater('[data-done-heading]')
      } catch (error) {
        this.notice = ''
        this.refuse(error)
      } finally {
        this.busy = false
      }
    },
    /** A signed-in signer's new signature goes to their library (with a certificate issued for them), as on the template signer page. */
    async keepNewSignature () {
      const image = this.isDraw() ? pad.image() : await window.signatureDrawing.typedImage(this.typedName)
      const kept = await call(config.newSignatureUrl, { method: 'POST', body: JSON.stringify({ label: 'My signature', image, certificate: { mode: 'issue' } }) })
      this.librarySignatures = [...this.librarySignatures, { uuid: kept.uuid, label: kept.label, imageUrl: null }]
      this.chosen = kept.uuid
      return kept.uuid
    },
    /** A signer by e-mail refuses, with a reason (POST /api/sign-links/<token>/decline): the signing ends. */
    async decline () {
      if (this.busy) return
      if (!this.declineReason.trim()) {
        this.error = 'Say why you decline: the sender reads it.'
        this.focusLater('[data-error]')
        return
      }
      this.busy = true
      this.error = ''
      try {
        await call(`${config.api}/decline`, { method: 'POST', body: JSON.stringify({ reason: this.declineReason.trim() }) })
        this.state = 'declined'
        this.focusLater('[data-declined-heading]')
      } catch (error) {
        this.refuse(error)
      } finally {
        this.busy = false
      }
    },
    doneUrl () { return config.doneUrl ?? '' },
    hasDoneUrl () { return Boolean(config.doneUrl) },
  })
}

mountComponent({ root: '[data-document-signing]', template: 'document-signing-template', loading: '[data-signing-loading]', name: 'documentSigning', data: (root) => signing(JSON.parse(root.dataset.config)) })
