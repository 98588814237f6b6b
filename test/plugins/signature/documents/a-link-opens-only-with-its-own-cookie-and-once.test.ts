// The cookie verify sets opens its own link only: no cookie, a made-up one, or the cookie of
// another request's link is ERR_SIGN_LINK_UNVERIFIED; a garbled token is ERR_SIGN_LINK_NOT_FOUND;
// once finalized the link is used (410), and the token is stored only as its digest.
import t from 'tap'
import { createHash } from 'node:crypto'
import { externalSignersSession, signInWithCode } from './document-helpers.ts'

t.setTimeout(180_000)

t.test('cookies are per link; a link is single use', async (t) => {
  const signers = [{ email: 'ann@example.net', name: 'Ann A' }, { email: 'bob@example.net', name: 'Bob B' }]
  const { app, smtp, tokens: [ann, bob] } = await externalSignersSession(t, signers)
  const links = await app.signature.database.db.selectFrom('sign_links').select(['token_sha256']).execute()
  t.same(links.map((l) => l.token_sha256).sort(), [ann!, bob!].map((x) => createHash('sha256').update(x).digest('hex')).sort(), 'only digests are stored')

  const { cookie: annCookie } = await signInWithCode(app, smtp, ann!)
  const refusals: Array<[string, string | undefined]> = [['no cookie', undefined], ['a made-up cookie', 'sign_link=abc'], ['another request\'s cookie', annCookie]]
  for (const [what, cookie] of refusals) {
    for (const path of ['', '/document', '/pages/1']) {
      const response = await app.inject({ url: `/api/sign-links/${bob}${path}`, ...(cookie ? { headers: { cookie } } : {}) })
      t.same([response.statusCode, response.json().code], [401, 'ERR_SIGN_LINK_UNVERIFIED'], `${what}: GET ${path || '/'}`)
    }
    const finalize = await app.inject({ method: 'POST', url: `/api/sign-links/${bob}/finalize`, ...(cookie ? { headers: { cookie } } : {}), payload: { signature: { typed: 'Bob B' } } })
    t.same([finalize.statusCode, finalize.json().code], [401, 'ERR_SIGN_LINK_UNVERIFIED'], `${what}: finalize`)
  }
  // Its last character changed: a token ending in 'A' already (1 in 64) would stay Bob's own.
  const garbled = await app.inject({ url: `/api/sign-links/${bob!.slice(0, -1)}${bob!.endsWith('A') ? 'B' : 'A'}` })
  t.same([garbled.statusCode, garbled.json().code], [404, 'ERR_SIGN_LINK_NOT_FOUND'])
  t.same((await app.inject({ method: 'POST', url: '/api/sign-links/short/code' })).json().code, 'ERR_SIGN_LINK_NOT_FOUND')

  const notJson = await app.inject({ method: 'POST', url: `/api/sign-links/${ann}/finalize`, headers: { cookie: annCookie, 'content-type': 'text/plain' }, payload: '{"signature":{"typed":"Ann A"}}' })
  t.equal(notJson.statusCode, 415, 'finalize takes JSON only')
  const signed = await app.inject({ method: 'POST', url: `/api/sign-links/${ann}/finalize`, headers: { cookie: annCookie }, payload: { signature: { typed: 'Ann A' } } })
  t.equal(signed.statusCode, 200, signed.body)
  for (const [method, path] of [['POST', '/finalize'], ['POST', '/code'], ['GET', '']] as const) {
    const response = await app.inject({ method, url: `/api/sign-links/${ann}${path}`, headers: { cookie: annCookie }, ...(path === '/finalize' ? { payload: { signature: { typed: 'Ann A' } } } : {}) })
    t.same([response.statusCode, response.json().code], [410, 'ERR_SIGN_LINK_USED'], `${method} ${path || '/'} after use`)
  }
  t.equal(await app.users.findByEmail('ann@example.net'), null, 'no user account is created')
})
