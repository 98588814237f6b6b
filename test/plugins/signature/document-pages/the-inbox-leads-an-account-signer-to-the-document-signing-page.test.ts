// An uploaded document has no template signer page (issue 38): the inbox links a signer with an
// account to the document's own signing page, which shows them their fields and signatures and
// records the opening; it is theirs only, and once signed it leads to the session's page.
import t from 'tap'
import { buildTestApp, DEMO, login } from '../../../helpers/app.ts'
import { getPage } from '../../../helpers/pages.ts'
import { signerWithSignature } from '../signing/helpers.ts'
import { createDocumentSession, documentSessionBody, uploadDocument } from '../documents/document-helpers.ts'

const configOf = (html: string) => JSON.parse(/data-config="([^"]+)"/.exec(html)![1]!.replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&amp;/g, '&'))

t.test('inbox -> the signing page -> signed -> the session page', async (t) => {
  const app = await buildTestApp(t)
  const admin = await login(app, DEMO.admin.email)
  const staff = await signerWithSignature(app, DEMO.staff.email, 'Sam')
  const document = (await uploadDocument(app, admin)).json().data
  const session = (await createDocumentSession(app, admin, documentSessionBody(document.id, { user: DEMO.staff.id, mode: 'parallel' }))).json().data
  const request = session.requests[1]

  const inbox = await getPage(app, '/app/inbox', staff.cookie)
  const link = `/app/documents/requests/${request.id}/sign`
  t.match(inbox.body, `href="${link}" data-sign-link`, 'the inbox links to the document signing page')
  const page = await getPage(app, link, staff.cookie)
  t.equal(page.statusCode, 200)
  const config = configOf(page.body)
  t.match(config, {
    mode: 'account',
    info: { sessionId: session.id, title: 'contract.pdf', pages: [{ page: 1, width: 792, height: 612 }], fields: [{ type: 'signature', page: 1, x: 500, y: 100 }] },
    pageUrl: `/api/signing-sessions/${session.id}/pages/__page__`,
    signUrl: `/api/signing-sessions/${session.id}/requests/${request.id}/sign`,
    signatures: [{ uuid: staff.signature, label: 'Sam' }],
    doneUrl: `/app/sessions/${session.id}`,
  })
  const detail = (await app.inject({ url: `/api/signing-sessions/${session.id}`, headers: { cookie: admin } })).json().data
  t.equal(detail.events.filter((e: any) => e.event === 'opened' && e.requestId === request.id).length, 1, 'the opening is in the history')

  const manager = await login(app, DEMO.manager.email)
  t.equal((await getPage(app, link, manager)).statusCode, 403, 'someone else\'s request: refused')
  t.equal((await getPage(app, '/app/documents/requests/00000000-0000-4000-8000-000000000000/sign', staff.cookie)).statusCode, 404)

  const signed = await app.inject({ method: 'POST', url: config.signUrl, headers: { cookie: staff.cookie }, payload: { signature: staff.signature } })
  t.equal(signed.statusCode, 200, signed.body)
  const after = await getPage(app, link, staff.cookie)
  t.equal(after.statusCode, 303, 'signed: the page leads to the session')
  t.equal(after.headers.location, `/app/sessions/${session.id}`)
  const events = (await app.inject({ url: `/api/signing-sessions/${session.id}`, headers: { cookie: admin } })).json().data.events
  t.equal(events.filter((e: any) => e.event === 'opened' && e.requestId === request.id).length, 1, 'a visit after signing is no opening')
})
