// The signing page of a document (document-signing.js) without the page: what each refusal of
// the sign-link and signing APIs means to the signer and what they can do next, how each of their
// fields is named and drawn over its page, and when Sign may be pressed. Served to the browser as
// an ES module and imported by the server's tests.
import { ptToPercent } from './coordinates.js'

/**
 * Each refusal code in the signer's words. `ends`: the link cannot be used any more (the page
 * shows only this); `restart`: back to "Send me a code"; otherwise the message sits by the form.
 */
const REFUSALS = {
  ERR_SIGN_LINK_NOT_FOUND: { text: 'This link is not known. Open the whole link from the e-mail you received, or ask the sender to send the document again.', ends: true },
  ERR_SIGN_LINK_EXPIRED: { text: 'This link has expired. Ask the sender to send the document again.', ends: true },
  ERR_SIGN_LINK_USED: { text: 'This link has already been used, or the signing has ended: nothing is left to sign here.', ends: true },
  ERR_SIGN_LINK_UNVERIFIED: { text: 'To open the document, get a one-time code by e-mail first.', restart: true },
  ERR_SIGN_CODE_INVALID: { text: 'That code is not right.' },
  ERR_SIGN_CODE_EXPIRED: { text: 'This code has expired or has been used. Send yourself a new one.', restart: true },
  ERR_SIGN_CODE_LOCKED: { text: 'Too many wrong codes: this one no longer works. Send yourself a new code.', restart: true },
  ERR_SIGN_RATE_LIMITED: { text: 'Too many codes have been asked for. Try again in an hour.' },
  ERR_SESSION_OUT_OF_ORDER: { text: 'It is not your turn yet: others sign before you. You will get an e-mail when it is your turn.' },
  ERR_SESSION_EXPIRED: { text: 'The date by which this document had to be signed has passed.', ends: true },
  ERR_SESSION_REQUEST_CLOSED: { text: 'This signature is no longer asked for: the signing has ended.', ends: true },
  ERR_ALREADY_SIGNED: { text: 'You have already signed this document.', ends: true },
  ERR_SESSION_REQUEST_NOT_YOURS: { text: 'This signature is asked of someone else.', ends: true },
}

/**
 * What to tell the signer about a refused call: { text, ends, restart }. The server's own words
 * follow ours where they add something (the attempts left after a wrong code).
 */
export function refusalFor (code, message) {
  const known = REFUSALS[code]
  if (!known) return { text: message || 'Something went wrong. Try again.', ends: false, restart: false }
  const detail = code === 'ERR_SIGN_CODE_INVALID' && /attempt/.test(message ?? '') ? ` ${message.replace(/^The code is not right: /, '').replace(/^./, (c) => c.toUpperCase())}.` : ''
  return { text: known.text + detail, ends: Boolean(known.ends), restart: Boolean(known.restart) }
}

/** A one-time code as typed: digits only, at most six (spaces and dashes from a copied mail dropped). */
export function cleanCode (typed) {
  return String(typed ?? '').replace(/\D/g, '').slice(0, 6)
}

/** Initials of a name, as the server fills an initials field nobody typed: "Ann May Example" -> "AME". */
export function initialsOf (name) {
  return String(name ?? '').split(/\s+/).filter(Boolean).map((w) => w[0].toUpperCase()).join('')
}

const TODAY = () => new Date().toISOString().slice(0, 10)

/** The short tag a field of the signer carries over the page (the sign panel says the rest). */
export function fieldCaption (field) {
  switch (field.type) {
    case 'signature': return 'Sign here'
    case 'date': return 'Date (filled in)'
    case 'name': return 'Your name (filled in)'
    case 'initials': return 'Your initials'
    case 'text': return field.label || 'Text to fill in'
    default: return field.label || field.type
  }
}

/** What the app writes for the signer when they sign: "date 2026-11-27 and your name (Ann Example)", or ''. */
export function filledForYou (fields, signerName) {
  const parts = []
  if (fields.some((f) => f.type === 'date')) parts.push(`the date (${TODAY()})`)
  if (fields.some((f) => f.type === 'name')) parts.push(`your name (${signerName})`)
  return parts.length ? `Filled in for you when you sign: ${parts.join(' and ')}.` : ''
}

/** The fields the signer types into (initials and text), in page order. */
export function typedFields (fields) {
  return fields.filter((f) => f.type === 'text' || f.type === 'initials').slice().sort((a, b) => a.page - b.page || b.y - a.y)
}

/** A field's overlay: CSS percentages of its page as displayed, y flipped. */
export function overlayStyle (field, page) {
  const box = ptToPercent(field, page)
  const pc = (n) => `${Math.round(n * 1000) / 1000}%`
  return `left: ${pc(box.left)}; top: ${pc(box.top)}; width: ${pc(box.width)}; height: ${pc(box.height)}`
}

/**
 * Why Sign cannot be pressed yet, or '' when it can: the whole document read, a signature made
 * (drawn, typed or chosen), every text field filled.
 */
export function signBlocker ({ readToEnd, hasSignature, fields, values }) {
  if (!readToEnd) return 'Read the document to the end first: scroll down to its last page.'
  if (!hasSignature) return 'Draw or type your signature first.'
  const empty = fields.filter((f) => f.type === 'text' && !String(values[f.id] ?? '').trim())
  if (empty.length) return `Fill in ${empty.map((f) => f.label || `the text field on page ${f.page}`).join(', ')}.`
  return ''
}

/** The `fields` of the finalize body: the typed values that are not empty, by field id. */
export function typedValues (fields, values) {
  const out = {}
  for (const f of typedFields(fields)) {
    const value = String(values[f.id] ?? '').trim()
    if (value) out[f.id] = value
  }
  return out
}
