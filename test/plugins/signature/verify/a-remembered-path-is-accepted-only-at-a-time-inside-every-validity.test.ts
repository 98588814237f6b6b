// Accepted certificate paths are remembered between verifications (certificate-chain.ts). What a
// path's acceptance depends on must be all of the key: having accepted root -> CA -> signer at a
// time inside every certificate's validity, the same path at a time the CA had expired (the
// signer's own certificate still valid) is refused as before; another anchor set or purpose does
// not reuse it either.
import { X509Certificate } from 'node:crypto'
import t from 'tap'
import { buildChain } from '../../../../plugins/signature/verify/certificate-chain.ts'
import { CA_EXTENSIONS, opensslChain, opensslDate, SIGNER_EXTENSIONS } from '../../../fixtures/pdf/openssl-chain.ts'

const DAY = 86_400_000
const pki = await opensslChain(t, 'Remembered Path Root')
const ca = await pki.issue('Short-Lived CA', pki.root, { extensions: CA_EXTENSIONS, startdate: opensslDate(new Date(Date.now() - DAY)), enddate: opensslDate(new Date(Date.now() + 2 * DAY)) })
const signer = await pki.issue('Long-Lived Signer', ca, { extensions: SIGNER_EXTENSIONS, startdate: opensslDate(new Date(Date.now() - DAY)), enddate: opensslDate(new Date(Date.now() + 20 * DAY)) })
const [root, intermediate, leaf] = [pki.root, ca, signer].map((c) => new X509Certificate(c.certPem))

t.test('accepted at a valid time, the same path is refused once the CA has expired', async (t) => {
  const now = new Date()
  for (let i = 0; i < 2; i++) t.equal((await buildChain(leaf!, [intermediate!], [root!], { at: now })).trusted, true, 'accepted, again from memory')
  const later = await buildChain(leaf!, [intermediate!], [root!], { at: new Date(Date.now() + 10 * DAY) })
  t.equal(later.trusted, false)
  t.match(later.problem, /Short-Lived CA is not valid at/)
  t.equal((await buildChain(leaf!, [intermediate!], [root!], { at: now })).trusted, true, 'and accepted again at the valid time')
})

t.test('an acceptance under one anchor does not stand for another anchor set', async (t) => {
  const other = new X509Certificate((await opensslChain(t, 'Some Other Root')).root.certPem)
  t.equal((await buildChain(leaf!, [intermediate!], [root!])).trusted, true)
  t.equal((await buildChain(leaf!, [intermediate!], [other])).trusted, false)
})

t.test('an acceptance for signing does not stand for timestamping', async (t) => {
  t.equal((await buildChain(leaf!, [intermediate!], [root!], { purpose: 'signing' })).trusted, true)
  const asTsa = await buildChain(leaf!, [intermediate!], [root!], { purpose: 'timestamping' })
  t.equal(asTsa.trusted, false)
  t.match(asTsa.problem, /not one for timestamps/)
})

t.test('the path handed back is made of the caller\'s certificates', async (t) => {
  const mine = [pki.root, ca, signer].map((c) => new X509Certificate(c.certPem))
  const result = await buildChain(mine[2]!, [mine[1]!], [mine[0]!])
  t.equal(result.trusted, true)
  t.same(result.chain.map((c) => c.subject), [mine[2]!.subject, mine[1]!.subject, mine[0]!.subject])
  t.ok(result.chain.every((c, i) => c === mine[2 - i]), 'the very objects given')
})
