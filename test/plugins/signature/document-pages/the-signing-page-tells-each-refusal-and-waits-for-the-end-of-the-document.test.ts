// The document signing page's rules (plugins/signature/public/document-signing-model.js, the file
// the browser runs): every refusal code of the sign-link and signing APIs in the signer's words,
// with what comes next; Sign waits for the document's end, a signature and every text field; the
// fields' overlays sit where their points are (y flipped), at any size the page is shown.
import t from 'tap'
import { cleanCode, fieldCaption, filledForYou, initialsOf, overlayStyle, refusalFor, signBlocker, typedValues } from '../../../../plugins/signature/public/document-signing-model.js'
import { ptToPercent, ptToPx } from '../../../../plugins/signature/public/coordinates.js'

t.test('each refusal: clear words, and whether the link is done for or the code starts over', async (t) => {
  t.match(refusalFor('ERR_SIGN_LINK_EXPIRED', 'x'), { text: /expired. Ask the sender/, ends: true })
  t.match(refusalFor('ERR_SIGN_LINK_USED', 'x'), { text: /already been used/, ends: true })
  t.match(refusalFor('ERR_SIGN_LINK_NOT_FOUND', 'x'), { text: /not known/, ends: true })
  t.same(refusalFor('ERR_SIGN_CODE_INVALID', 'The code is not right: 3 attempt(s) left'), { text: 'That code is not right. 3 attempt(s) left.', ends: false, restart: false })
  t.match(refusalFor('ERR_SIGN_CODE_LOCKED', 'x'), { text: /Too many wrong codes/, restart: true, ends: false })
  t.match(refusalFor('ERR_SIGN_CODE_EXPIRED', 'x'), { text: /expired/, restart: true })
  t.match(refusalFor('ERR_SIGN_LINK_UNVERIFIED', 'x'), { restart: true })
  t.match(refusalFor('ERR_SIGN_RATE_LIMITED', 'x'), { text: /Try again in an hour/, ends: false })
  t.match(refusalFor('ERR_SESSION_OUT_OF_ORDER', 'x'), { text: /not your turn/ })
  t.same(refusalFor('ERR_SOMETHING_NEW', 'What the server said'), { text: 'What the server said', ends: false, restart: false }, 'an unknown code: the server\'s words')
})

t.test('a code as typed or pasted: its six digits', async (t) => {
  t.equal(cleanCode(' 123-456 '), '123456')
  t.equal(cleanCode('12345678'), '123456')
  t.equal(initialsOf('Ann  may example'), 'AME')
})

t.test('Sign waits for the end of the document, then a signature, then every text field', async (t) => {
  const fields = [{ id: 'f1', type: 'signature', page: 1 }, { id: 'f4', type: 'text', page: 2, label: 'Job title' }, { id: 'f5', type: 'initials', page: 2 }]
  t.match(signBlocker({ readToEnd: false, hasSignature: true, fields, values: { f4: 'x' } }), /to the end/)
  t.match(signBlocker({ readToEnd: true, hasSignature: false, fields, values: { f4: 'x' } }), /signature first/)
  t.equal(signBlocker({ readToEnd: true, hasSignature: true, fields, values: { f4: ' ' } }), 'Fill in Job title.')
  t.equal(signBlocker({ readToEnd: true, hasSignature: true, fields, values: { f4: 'Clerk' } }), '', 'initials may stay empty: the server writes the name\'s')
  t.same(typedValues(fields, { f4: ' Clerk ', f5: '' }), { f4: 'Clerk' })
  t.equal(fieldCaption({ type: 'signature' }), 'Sign here')
  t.equal(fieldCaption({ type: 'text', label: 'Job title' }), 'Job title')
  t.match(filledForYou([{ type: 'signature' }, { type: 'name' }, { type: 'date' }], 'Ann Example'), /^Filled in for you when you sign: the date \(\d{4}-\d\d-\d\d\) and your name \(Ann Example\)\.$/)
  t.equal(filledForYou([{ type: 'signature' }], 'Ann'), '')
})

t.test('an overlay in percent is the box ptToPx draws, at any shown width', async (t) => {
  const page = { width: 792, height: 612 }
  const box = { x: 72, y: 100, width: 180, height: 50 }
  const pc = ptToPercent(box, page)
  for (const shownWidth of [390, 1280]) {
    const shown = { width: shownWidth, height: shownWidth * page.height / page.width }
    const px = ptToPx(box, page, shown)
    t.ok(Math.abs(pc.left / 100 * shown.width - px.left) < 1e-9 && Math.abs(pc.top / 100 * shown.height - px.top) < 1e-9, `left and top at ${shownWidth} px`)
    t.ok(Math.abs(pc.width / 100 * shown.width - px.width) < 1e-9 && Math.abs(pc.height / 100 * shown.height - px.height) < 1e-9, `size at ${shownWidth} px`)
  }
  t.equal(overlayStyle(box, page), 'left: 9.091%; top: 75.49%; width: 22.727%; height: 8.17%', 'top = (612 - 100 - 50) / 612')
})
