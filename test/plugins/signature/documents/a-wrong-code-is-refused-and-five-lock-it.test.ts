// A wrong code is refused with the attempts left; the fifth wrong one locks the code (429), even
// the right code no longer works, and a new code (mailed by the real SMTP peer) does.
import t from 'tap'
import { codeIn, externalSignersSession, mailMatching } from './document-helpers.ts'

t.setTimeout(120_000)

t.test('wrong codes, then locked', async (t) => {
  const { app, smtp, tokens: [token] } = await externalSignersSession(t)
  t.equal((await app.inject({ method: 'POST', url: `/api/sign-links/${token}/code` })).statusCode, 204)
  const code = codeIn(await mailMatching(smtp, (m) => m.subject.startsWith('Your code')))
  const wrong = code === '000000' ? '111111' : '000000'
  const verify = (value: string) => app.inject({ method: 'POST', url: `/api/sign-links/${token}/verify`, payload: { code: value } })
  for (let attempt = 1; attempt <= 4; attempt++) {
    const response = await verify(wrong)
    t.same([response.statusCode, response.json().code], [400, 'ERR_SIGN_CODE_INVALID'])
    t.match(response.json().message, `${5 - attempt} attempt(s) left`)
    t.notOk(response.headers['set-cookie'], 'no cookie')
  }
  const fifth = await verify(wrong)
  t.same([fifth.statusCode, fifth.json().code], [429, 'ERR_SIGN_CODE_LOCKED'])
  const right = await verify(code)
  t.same([right.statusCode, right.json().code], [429, 'ERR_SIGN_CODE_LOCKED'], 'the right code no longer opens a locked one')
  const malformed = await verify('12ab')
  t.same([malformed.statusCode, malformed.json().code], [400, 'ERR_VALIDATION'])

  t.equal((await app.inject({ method: 'POST', url: `/api/sign-links/${token}/code` })).statusCode, 204)
  const fresh = codeIn(await mailMatching(smtp, (m) => m.subject.startsWith('Your code'), 1))
  const opened = await verify(fresh)
  t.equal(opened.statusCode, 200, opened.body)
  t.match(opened.headers['set-cookie'], /sign_link=[^;]+; Max-Age=\d+; Path=\/api\/sign-links\/[A-Za-z0-9_-]{43}; HttpOnly; SameSite=Strict/)
  const again = await verify(fresh)
  t.same([again.statusCode, again.json().code], [400, 'ERR_SIGN_CODE_EXPIRED'], 'a code works once')
})
