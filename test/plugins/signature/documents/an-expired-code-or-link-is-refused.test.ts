// A code older than 10 minutes and a link past its expiry are refused with their own codes. Time
// moves as in the project's other due-date tests: the stored instants are moved back.
import t from 'tap'
import { codeIn, externalSignersSession, mailMatching } from './document-helpers.ts'

t.setTimeout(120_000)

t.test('expired code, then expired link', async (t) => {
  const { app, smtp, tokens: [token], session } = await externalSignersSession(t)
  const db = app.signature.database.db
  const requestId = session.requests[0].id
  const verify = (code: string) => app.inject({ method: 'POST', url: `/api/sign-links/${token}/verify`, payload: { code } })

  const none = await verify('123456')
  t.same([none.statusCode, none.json().code], [400, 'ERR_SIGN_CODE_EXPIRED'], 'no code was sent')
  t.equal((await app.inject({ method: 'POST', url: `/api/sign-links/${token}/code` })).statusCode, 204)
  const code = codeIn(await mailMatching(smtp, (m) => m.subject.startsWith('Your code')))
  const link = await db.selectFrom('sign_links').selectAll().where('request_id', '=', requestId).executeTakeFirstOrThrow()
  t.ok(Date.parse(link.code_expires_at!) - Date.now() <= 10 * 60_000, 'a code lasts 10 minutes')
  t.not(link.code_sha256, code, 'the code is stored as a digest only')
  await db.updateTable('sign_links').set({ code_expires_at: new Date(Date.now() - 1000).toISOString() }).where('request_id', '=', requestId).execute()
  const late = await verify(code)
  t.same([late.statusCode, late.json().code], [400, 'ERR_SIGN_CODE_EXPIRED'])

  t.ok(Date.parse(link.expires_at) - Date.now() <= 14 * 86_400_000, 'a link lasts 14 days at most')
  await db.updateTable('sign_links').set({ expires_at: new Date(Date.now() - 1000).toISOString() }).where('request_id', '=', requestId).execute()
  for (const [method, path] of [['POST', 'code'], ['POST', 'verify'], ['GET', ''], ['POST', 'finalize']] as const) {
    const response = await app.inject({ method, url: `/api/sign-links/${token}${path ? `/${path}` : ''}`, ...(method === 'POST' && path !== 'code' ? { payload: path === 'verify' ? { code } : { signature: { typed: 'E' } } } : {}) })
    t.same([response.statusCode, response.json().code], [410, 'ERR_SIGN_LINK_EXPIRED'], `${method} ${path}`)
  }
})
