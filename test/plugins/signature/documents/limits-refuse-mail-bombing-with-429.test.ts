// Abuse limits, each a 429 ERR_SIGN_RATE_LIMITED with Retry-After, from the configuration
// (config/signature.ts `documents`, lowered here): codes per link and per address an hour,
// invitations per address a day, sessions per creator an hour. A refused session writes nothing.
import t from 'tap'
import { signature } from '../../../../config/signature.ts'
import { createDocumentSession, EXTERNAL, externalSignersSession, mailMatching, tokenIn } from './document-helpers.ts'

t.setTimeout(240_000)

signature.documents = { codes_per_link_per_hour: 2, codes_per_address_per_hour: 3, invitations_per_address_per_day: 2, sessions_per_creator_per_hour: 4 }

t.test('limits per link, address, recipient and creator', async (t) => {
  const { app, smtp, admin, document, tokens: [first] } = await externalSignersSession(t)
  const code = (token: string) => app.inject({ method: 'POST', url: `/api/sign-links/${token}/code` })
  const limited = (response: Awaited<ReturnType<typeof code>>, what: string) => {
    t.same([response.statusCode, response.json().code], [429, 'ERR_SIGN_RATE_LIMITED'], what)
    t.ok(Number(response.headers['retry-after']) > 0, `${what}: Retry-After`)
  }
  t.equal((await code(first!)).statusCode, 204)
  t.equal((await code(first!)).statusCode, 204)
  limited(await code(first!), 'a third code for one link within the hour')

  const body = (email: string) => ({ document: document.id, signers: [{ email, name: 'Someone' }], fields: [{ signer: 0, type: 'signature', page: 1, x: 40, y: 40, width: 200, height: 60 }] })
  const second = await createDocumentSession(app, admin, body(EXTERNAL.email))
  t.equal(second.statusCode, 201, 'a second invitation to the same address')
  const secondToken = tokenIn(await mailMatching(smtp, (m) => m.to[0] === EXTERNAL.email && m.subject.startsWith('Please sign'), 1))
  t.equal((await code(secondToken)).statusCode, 204, 'the address\'s third code of the hour')
  limited(await code(secondToken), 'a fourth code for one address within the hour')

  const before = await app.signature.database.db.selectFrom('signing_sessions').select('id').execute()
  limited(await createDocumentSession(app, admin, body(EXTERNAL.email)), 'a third invitation to one address within a day')
  t.equal((await app.signature.database.db.selectFrom('signing_sessions').select('id').execute()).length, before.length, 'nothing written')

  t.equal((await createDocumentSession(app, admin, body('x1@example.net'))).statusCode, 201)
  t.equal((await createDocumentSession(app, admin, body('x2@example.net'))).statusCode, 201)
  limited(await createDocumentSession(app, admin, body('x3@example.net')), 'a fifth session by one creator within the hour')
})
