// The "New document" editor's rules that need no page: the field types and their first size, who
// signs (an account or a name and an address), what Send posts to POST /api/signing-sessions, and
// the API's refusals said with the signers' names and the fields' words instead of indexes.
// Served to the browser as an ES module and imported by the server's tests.

/** The palette, in its order; sizes in PDF points (a signature line, a one-line date...). */
export const FIELD_TYPES = [
  { type: 'signature', label: 'Signature', width: 170, height: 50 },
  { type: 'date', label: 'Date signed', width: 110, height: 22 },
  { type: 'name', label: 'Name', width: 170, height: 22 },
  { type: 'initials', label: 'Initials', width: 60, height: 36 },
  { type: 'text', label: 'Text', width: 170, height: 22 },
]

export function fieldType (type) {
  return FIELD_TYPES.find((t) => t.type === type) ?? FIELD_TYPES[0]
}

// Loose on purpose: the server decides; this only catches a slip before the round trip.
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/

/**
 * Why a signer cannot be added, or null. `candidate` is { user, name } (an account) or
 * { name, email } (an address); `signers` are those already on the list.
 */
export function signerProblem (candidate, signers) {
  if (candidate.user !== undefined) {
    if (!candidate.user) return 'Choose a person.'
    if (signers.some((s) => s.user === candidate.user)) return `${candidate.name} is already a signer.`
    return null
  }
  const name = (candidate.name ?? '').trim()
  const email = (candidate.email ?? '').trim().toLowerCase()
  if (!name) return 'Type the signer\'s name.'
  if (!EMAIL.test(email)) return 'Type an e-mail address such as ann@example.com.'
  if (signers.some((s) => s.email && s.email.toLowerCase() === email)) return `${email} is already a signer.`
  return null
}

/** The signers who have no signature field yet: each signer signs at least once. */
export function signersWithoutSignature (signers, fields) {
  return signers.filter((s) => !fields.some((f) => f.signer === s.key && f.type === 'signature'))
}

/** What is missing before Send can work, in words; [] when nothing is. */
export function sendProblems (signers, fields) {
  const problems = []
  if (!signers.length) problems.push('Add at least one signer.')
  // A saved template's role nobody was chosen for yet.
  for (const s of signers.filter((s) => s.placeholder)) problems.push(`Choose who signs as ${s.role}.`)
  for (const s of signersWithoutSignature(signers, fields)) problems.push(`${s.name} has no signature field: add one from the palette.`)
  return problems
}

/**
 * The body of POST /api/signing-sessions. Signers are referred to by their place in `signers`;
 * fields carry their signer's index. Empty message and due date are left out.
 */
export function sessionBody ({ document, mode, message, dueAt, signers, fields }) {
  const index = new Map(signers.map((s, i) => [s.key, i]))
  return {
    document,
    mode,
    ...(message.trim() ? { message: message.trim() } : {}),
    ...(dueAt ? { dueAt } : {}),
    signers: signers.map((s) => (s.user ? { user: s.user } : { email: s.email, name: s.name })),
    fields: fields.map((f) => ({
      signer: index.get(f.signer),
      type: f.type,
      page: f.page,
      x: f.x,
      y: f.y,
      width: f.width,
      height: f.height,
      ...(f.label && f.label.trim() ? { label: f.label.trim() } : {}),
    })),
  }
}

/**
 * The API's message ("body.fields.2.x: ...; body.signers.0.email: ...") as lines people read:
 * "Date signed for Ann Example: ...", "Ann Example: ...". Anything else stays as it was said.
 */
export function refusalInWords (message, signers, fields) {
  const parts = String(message ?? '').split('; ').filter(Boolean)
  return parts.map((part) => {
    const field = /^body\.fields\.(\d+)(?:\.\w+)?: (.*)$/.exec(part)
    if (field) {
      const f = fields[Number(field[1])]
      if (f) return `${fieldType(f.type).label} for ${signers.find((s) => s.key === f.signer)?.name ?? 'a signer'} (page ${f.page}): ${field[2]}`
    }
    const signer = /^body\.signers\.(\d+)(?:\.\w+)?: (.*)$/.exec(part)
    if (signer) {
      const s = signers[Number(signer[1])]
      if (s) return `${s.name}: ${signer[2]}`
    }
    const other = /^body\.(\w+): (.*)$/.exec(part)
    if (other) return `${{ dueAt: 'Sign by', message: 'Message', mode: 'Order', document: 'Document' }[other[1]] ?? other[1]}: ${other[2]}`
    return part
  })
}

/** A signer as POST /api/signing-sessions takes them: an account, or a name and an address. */
const signerOf = (s) => (s.user ? { user: s.user } : { email: s.email, name: s.name })

/**
 * The body of POST /api/documents/:id/template: the name, one role per signer (their place in the
 * list: "Signer 1", ...) and the fields by their signer's index, as sessionBody() gives them.
 */
export function templateSaveBody ({ name, signers, fields }) {
  const { fields: indexed } = sessionBody({ document: '', mode: 'sequential', message: '', dueAt: '', signers, fields })
  return { name: name.trim(), signers: signers.map((s, i) => ({ role: s.role || `Signer ${i + 1}` })), fields: indexed }
}

/**
 * A saved template (GET /api/document-templates) opened in the editor: one placeholder signer per
 * role, to be chosen, and its fields for them. `nextKey(prefix)` makes the editor's keys.
 */
export function editorFromTemplate (template, nextKey) {
  const signers = template.signers.map((s, i) => ({ key: nextKey('s'), role: s.role, name: s.role, email: '', placeholder: true, colour: i }))
  const fields = template.fields.map((f) => ({ id: nextKey('f'), signer: signers[f.signer].key, type: f.type, page: f.page, x: f.x, y: f.y, width: f.width, height: f.height, label: f.label ?? '' }))
  return { signers, fields }
}

/** The body of POST /api/signing-sessions from a saved template: its key and the chosen signers, one per role in order. */
export function templateSessionBody ({ template, mode, message, dueAt, signers }) {
  return {
    template,
    mode,
    ...(message.trim() ? { message: message.trim() } : {}),
    ...(dueAt ? { dueAt } : {}),
    signers: signers.map(signerOf),
  }
}
