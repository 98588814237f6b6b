// An external signer with two signature fields, initials and a text field signs with a drawn
// image (a PNG data URL) and gives the text: both signature fields are signed (each its own
// signature, all valid), the initials default to the name's, the text is what they typed; a
// value for a field that is not theirs, or a broken image, is refused with nothing signed.
import t from 'tap'
import { buildTestApp, DEMO, login } from '../../../helpers/app.ts'
import { startSmtpPeer } from '../../../helpers/delivery-peers.ts'
import { pdfsig, popplerText } from '../../../fixtures/pdf/checkers.ts'
import { STAMP_DATA_URL } from '../signing/helpers.ts'
import { createDocumentSession, EXTERNAL, mailMatching, signInWithCode, tokenIn, uploadDocument } from './document-helpers.ts'

t.setTimeout(180_000)

t.test('drawn signature, two signature fields, initials and text', async (t) => {
  const smtp = await startSmtpPeer(t)
  const app = await buildTestApp(t, { env: { SMTP_URL: smtp.url } })
  const admin = await login(app, DEMO.admin.email)
  const document = (await uploadDocument(app, admin)).json().data
  const created = await createDocumentSession(app, admin, {
    document: document.id, signers: [EXTERNAL],
    fields: [
      { signer: 0, type: 'signature', page: 1, x: 40, y: 40, width: 200, height: 60 },
      { signer: 0, type: 'signature', page: 1, x: 300, y: 40, width: 200, height: 60, label: 'Again here' },
      { signer: 0, type: 'initials', page: 1, x: 40, y: 200, width: 60, height: 24 },
      { signer: 0, type: 'text', page: 1, x: 120, y: 200, width: 300, height: 24, label: 'Start date' },
    ],
  })
  t.equal(created.statusCode, 201, created.body)
  const token = tokenIn(await mailMatching(smtp, (m) => m.subject.startsWith('Please sign')))
  const { cookie } = await signInWithCode(app, smtp, token)
  const finalize = (payload: object) => app.inject({ method: 'POST', url: `/api/sign-links/${token}/finalize`, headers: { cookie }, payload })

  const foreign = await finalize({ signature: { image: STAMP_DATA_URL }, fields: { f9: 'x' } })
  t.same([foreign.statusCode, foreign.json().code], [400, 'ERR_VALIDATION'], 'a field that is not theirs')
  const broken = await finalize({ signature: { image: 'data:image/png;base64,AAAA' } })
  t.same([broken.statusCode, broken.json().code], [422, 'ERR_IMAGE_INVALID'])
  const signed = await finalize({ signature: { image: STAMP_DATA_URL }, fields: { f4: 'Monday 4 January' } })
  t.equal(signed.statusCode, 200, signed.body)
  t.equal(signed.json().data.session.status, 'completed')

  const download = await app.inject({ url: `/api/signing-sessions/${created.json().data.id}/document`, headers: { cookie: admin } })
  const { signatures } = await pdfsig(download.rawPayload)
  // Certification, the two signature fields, the sealing's document timestamp.
  t.equal(signatures.length, 4)
  t.ok(signatures.slice(0, 3).every((s) => s.validation === 'Signature is Valid.'), JSON.stringify(signatures))
  const text = await popplerText(download.rawPayload)
  t.match(text, 'Monday 4 January')
  t.match(text, /\bEE\b/, 'initials default to the name\'s')
})
