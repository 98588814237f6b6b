// The Cancel link of the signer page leads back where the person came from, and only ever to a
// page of this site: an explicit back value or the Referer, each through safeNext.
import t from 'tap'
import type { FastifyRequest } from 'fastify'
import { cameFrom } from '../../../core/views/came-from.ts'

const request = (referer: string | undefined, url = '/app/signature-templates/payslip/sign/abc') =>
  ({ url, headers: { host: 'work.example', ...(referer === undefined ? {} : { referer }) } }) as unknown as FastifyRequest

t.test('back value first, then the Referer of this host, else the fallback', async (t) => {
  t.equal(cameFrom(request(undefined), '/app/inbox', '/app'), '/app/inbox', 'an explicit back')
  t.equal(cameFrom(request('http://work.example/app/my-signatures'), undefined, '/app'), '/app/my-signatures', 'the Referer of this host')
  t.equal(cameFrom(request('http://work.example/app/sessions/7?tab=history'), undefined, '/app'), '/app/sessions/7?tab=history', 'with its query')
  t.equal(cameFrom(request(undefined), undefined, '/app'), '/app', 'nothing known: the fallback')
})

t.test('never another site, never the login page, never the page itself', async (t) => {
  for (const back of ['//evil.example', 'https://evil.example/x', '/\\evil.example', 'javascript:alert(1)', '/.//evil.example', '/login']) {
    t.equal(cameFrom(request(undefined), back, '/app'), '/app', `back ${back}`)
  }
  t.equal(cameFrom(request('https://evil.example/app/inbox'), undefined, '/app'), '/app', 'a Referer of another host')
  t.equal(cameFrom(request('not a url'), undefined, '/app'), '/app', 'a Referer that is no URL')
  t.equal(cameFrom(request('http://work.example/app/signature-templates/payslip/sign/abc?signable=x'), undefined, '/app'), '/app', 'the signer page itself (a reload)')
})
