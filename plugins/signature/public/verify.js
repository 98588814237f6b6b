// The verifier page: a dropped or chosen PDF goes to /api/verify as application/pdf; the report
// comes back as JSON and is shown with textContent only (nothing from the file is parsed as HTML).
(() => {
  const root = document.querySelector('[data-verify]')
  if (!root) return
  const config = JSON.parse(root.dataset.config)
  const status = root.querySelector('[data-status]')
  const report = root.querySelector('[data-report]')
  const drop = root.querySelector('[data-drop]')
  const input = root.querySelector('[data-file]')

  const el = (tag, props = {}, ...children) => {
    const node = Object.assign(document.createElement(tag), props)
    node.append(...children.filter((c) => c !== null && c !== undefined))
    return node
  }
  const say = (text, kind) => {
    status.hidden = false
    status.className = `flash${kind ? ` flash-${kind}` : ''}`
    status.textContent = text
  }
  const VERDICT = { valid: 'Valid', warning: 'Valid with warnings', invalid: 'Not valid' }

  async function verify(file) {
    if (!file) return
    report.hidden = true
    say(`Verifying ${file.name}…`)
    try {
      const response = await fetch(config.api, { method: 'POST', headers: { 'content-type': 'application/pdf', accept: 'application/json' }, body: file, credentials: 'same-origin' })
      await show(response, file.name)
    } catch {
      say('The server could not be reached. Try again.', 'error')
    }
  }

  async function show(response, name) {
    const body = await response.json().catch(() => ({}))
    if (!response.ok) { say(body.message || `The file could not be verified (${response.status}).`, 'error'); return }
    say(name ? `${name}: checked.` : 'Checked.')
    render(body)
  }

  function fact(list, label, value) {
    if (value === null || value === undefined || value === '') return
    list.append(el('dt', { textContent: label }), el('dd', { textContent: String(value) }))
  }

  function render(data) {
    const doc = data.document
    const head = el('div', { className: `verify-verdict is-${data.verdict}` },
      el('h2', { textContent: VERDICT[data.verdict] || data.verdict }),
      el('p', { textContent: data.summary }),
      el('p', { className: 'muted', textContent: `${doc.pages} page${doc.pages === 1 ? '' : 's'} · ${doc.revisions} revision${doc.revisions === 1 ? '' : 's'}${doc.certification ? ` · certified (P=${doc.certification.p})` : ''} · SHA-256 ${doc.sha256.slice(0, 16)}…` }))
    head.dataset.verdict = data.verdict
    const items = data.signatures.map((sig, i) => {
      const title = el('h3', {}, `${i + 1}. ${sig.kind === 'document-timestamp' ? 'Document timestamp' : sig.kind === 'certification' ? 'Certification' : 'Signature'}${sig.field ? ` “${sig.field}”` : ''}`,
        el('span', { className: `badge verify-badge-${sig.verdict}`, textContent: VERDICT[sig.verdict] || sig.verdict }))
      const facts = el('dl', { className: 'verify-facts' })
      fact(facts, 'Signer', sig.signer && sig.signer.subject)
      fact(facts, 'Issuer', sig.signer && sig.signer.issuer)
      fact(facts, 'Integrity', sig.integrity === 'valid' ? 'intact' : 'broken')
      fact(facts, 'Covers', sig.coversWholeDocument ? 'the whole file' : `revision ${sig.revision} of ${doc.revisions}`)
      fact(facts, 'Changes after', { none: 'none', allowed: 'only allowed ones', forbidden: 'forbidden changes' }[sig.modificationsAfter])
      fact(facts, 'Trust', sig.trust)
      fact(facts, 'Revocation', `${sig.revocation}${sig.revocationSource ? ` (${sig.revocationSource})` : ''}${sig.revokedAt ? ` since ${sig.revokedAt}` : ''}`)
      fact(facts, 'Timestamp', sig.timestamp && `${sig.timestamp.time || '?'}${sig.timestamp.tsa ? ` by ${sig.timestamp.tsa}` : ''}${sig.timestamp.valid ? '' : ' (not valid)'}`)
      fact(facts, 'Level', sig.level || 'not PAdES')
      const changes = sig.changes.length ? el('ul', { className: 'verify-changes' }, ...sig.changes.map((c) =>
        // In words first; the object number and the kind of change are for those who open the PDF's insides.
        el('li', { className: c.allowed ? '' : 'is-forbidden' },
          el('span', { textContent: `${c.why}${/[.!?]$/.test(c.why) ? '' : '.'} ${c.allowed ? 'Allowed' : 'Not allowed'} (added in revision ${c.revision}). ` }),
          el('details', { className: 'verify-change-details' }, el('summary', { textContent: 'Details' }), el('span', { textContent: `Object ${c.object}, change of kind “${c.kind}”.` }))))) : null
      // The same verdict in ETSI EN 319 102-1's terms and the whole chain, for those who compare with EU DSS or pyHanko.
      const v = sig.validation
      const technical = v ? el('details', { className: 'verify-technical' }, el('summary', { textContent: 'Technical details' }),
        el('p', { textContent: `ETSI EN 319 102-1: ${v.indication}${v.subIndication ? ` / ${v.subIndication}` : ''}. Validated at ${v.validationTime}${v.bestSignatureTime ? `; signed no later than ${v.bestSignatureTime}` : ''}.` }),
        el('ol', { className: 'verify-chain' }, ...v.chain.map((c) => el('li', {
          textContent: `${c.subject}, issued by ${c.issuer}, serial ${c.serial}: ${c.validity}, ${c.notBefore} to ${c.notAfter}; revocation ${c.revocation.status}${c.revocation.source ? ` (${c.revocation.source})` : ''}${c.trustAnchor ? '; trust anchor' : ''}`,
        })))) : null
      const article = el('article', { className: 'verify-sig' }, title, el('p', { textContent: sig.summary }), facts, changes, technical)
      article.dataset.signature = sig.field || ''
      article.dataset.verdict = sig.verdict
      return article
    })
    report.replaceChildren(head, ...items)
    report.hidden = false
  }

  if (config.source) {
    fetch(config.source, { headers: { accept: 'application/json' }, credentials: 'same-origin' })
      .then((response) => show(response, null), () => say('The server could not be reached. Try again.', 'error'))
  }
  if (!drop) return
  input.addEventListener('change', () => verify(input.files[0]))
  for (const type of ['dragenter', 'dragover']) drop.addEventListener(type, (event) => { event.preventDefault(); drop.classList.add('is-over') })
  for (const type of ['dragleave', 'drop']) drop.addEventListener(type, () => drop.classList.remove('is-over'))
  drop.addEventListener('drop', (event) => {
    event.preventDefault()
    const file = event.dataTransfer && event.dataTransfer.files[0]
    // The picker would otherwise still name the previous file.
    input.value = ''
    if (file) verify(file)
  })
})()
