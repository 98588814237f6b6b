// The application's TSA as openssl sees it: a query made by `openssl ts -query`, posted to the
// running app's /pki/tsa, verifies with `openssl ts -verify` against the app's CA; SHA-1 and
// garbage are answered with a rejection carrying the right failure bit.
import { readFile, writeFile } from 'node:fs/promises'
import t from 'tap'
import { listenOrigin } from '../../../../plugins/signature/create-delivery.ts'
import { TSA_POLICY_OID } from '../../../../plugins/signature/pki/respond-to-timestamp-query.ts'
import { buildTestApp } from '../../../helpers/app.ts'
import { opensslFolder } from './openssl-tools.ts'

t.test('openssl ts: query, reply and verify against the CA', async (t) => {
  const app = await buildTestApp(t)
  await app.listen({ host: '127.0.0.1', port: 0 })
  const origin = listenOrigin(app)
  const { file, openssl } = await opensslFolder(t)
  await writeFile(file('ca.pem'), await (await fetch(`${origin}/pki/ca.pem`)).text())
  await writeFile(file('data.txt'), 'the document, as the signer saw it\n')

  const post = async (query: string, out: string) => {
    const response = await fetch(`${origin}/pki/tsa`, { method: 'POST', headers: { 'content-type': 'application/timestamp-query' }, body: await readFile(file(query)) })
    t.equal(response.status, 200)
    t.equal(response.headers.get('content-type'), 'application/timestamp-reply')
    t.notOk(response.headers.get('set-cookie'), 'no session')
    await writeFile(file(out), Buffer.from(await response.arrayBuffer()))
  }

  t.equal((await openssl('ts', '-query', '-data', 'data.txt', '-sha256', '-cert', '-out', 'q.tsq')).code, 0)
  await post('q.tsq', 'r.tsr')
  const reply = (await openssl('ts', '-reply', '-in', 'r.tsr', '-text')).output
  t.match(reply, /Status: Granted\./)
  t.match(reply, new RegExp(`Policy OID: ${TSA_POLICY_OID.replace(/\./g, '\\.')}`))
  t.match(reply, /Hash Algorithm: sha256/)
  const queryNonce = /Nonce: (\S+)/.exec((await openssl('ts', '-query', '-in', 'q.tsq', '-text')).output)?.[1]
  t.ok(queryNonce, 'openssl sent a nonce')
  t.equal(/Nonce: (\S+)/.exec(reply)?.[1], queryNonce, 'the nonce is echoed')
  const genTime = Date.parse(/Time stamp: (.+) GMT/.exec(reply)![1]! + ' GMT')
  t.ok(Math.abs(genTime - Date.now()) < 60_000, 'genTime is now')

  // The TSA's certificate, taken from the token itself as a verifier would.
  t.equal((await openssl('ts', '-reply', '-in', 'r.tsr', '-token_out', '-out', 'token.der')).code, 0)
  t.equal((await openssl('pkcs7', '-inform', 'DER', '-in', 'token.der', '-print_certs', '-out', 'chain.pem')).code, 0)
  const chain = await readFile(file('chain.pem'), 'latin1')
  t.equal(chain.match(/BEGIN CERTIFICATE/g)?.length, 2, 'certReq: the TSA certificate and the CA are included')
  await writeFile(file('tsa.pem'), chain.slice(0, chain.indexOf('-----END CERTIFICATE-----') + 26))
  const tsaText = (await openssl('x509', '-in', 'tsa.pem', '-noout', '-text')).output
  t.match(tsaText, /X509v3 Extended Key Usage: critical\s+Time Stamping\s*\n(?!\s+\S+,)/, 'the only, critical, extended key usage is timeStamping')

  const verified = await openssl('ts', '-verify', '-in', 'r.tsr', '-queryfile', 'q.tsq', '-CAfile', 'ca.pem', '-untrusted', 'tsa.pem')
  t.equal(verified.code, 0)
  t.match(verified.output, /Verification: OK/)
  // The same reply does not verify for other data: the check above means something.
  await writeFile(file('other.txt'), 'a different document\n')
  t.equal((await openssl('ts', '-query', '-data', 'other.txt', '-sha256', '-cert', '-no_nonce', '-out', 'other.tsq')).code, 0)
  t.not((await openssl('ts', '-verify', '-in', 'r.tsr', '-queryfile', 'other.tsq', '-CAfile', 'ca.pem', '-untrusted', 'tsa.pem')).code, 0)

  // Without -cert the token carries no certificate; SHA-512 imprints are accepted.
  t.equal((await openssl('ts', '-query', '-data', 'data.txt', '-sha512', '-out', 'q512.tsq')).code, 0)
  await post('q512.tsq', 'r512.tsr')
  t.equal((await openssl('ts', '-reply', '-in', 'r512.tsr', '-token_out', '-out', 'token512.der')).code, 0)
  t.notMatch((await openssl('pkcs7', '-inform', 'DER', '-in', 'token512.der', '-print_certs')).output, /subject=/, 'no certificates unless asked')
  t.match((await openssl('ts', '-verify', '-in', 'r512.tsr', '-queryfile', 'q512.tsq', '-CAfile', 'ca.pem', '-untrusted', 'tsa.pem')).output, /Verification: OK/)

  // SHA-1 is refused with badAlg; bytes that are no query with badRequest.
  t.equal((await openssl('ts', '-query', '-data', 'data.txt', '-sha1', '-out', 'q1.tsq')).code, 0)
  await post('q1.tsq', 'r1.tsr')
  const sha1 = (await openssl('ts', '-reply', '-in', 'r1.tsr', '-text')).output
  t.match(sha1, /Status: Rejected\./)
  t.match(sha1, /Failure info:\s+unrecognized or unsupported algorithm identifier/i)
  await writeFile(file('junk.tsq'), Buffer.from('30030201', 'hex'))
  await post('junk.tsq', 'junk.tsr')
  const junk = (await openssl('ts', '-reply', '-in', 'junk.tsr', '-text')).output
  t.match(junk, /Status: Rejected\./)
  t.match(junk, /Failure info:\s+transaction not permitted or supported/)

  // A query that names a policy: ours is granted, any other refused with unacceptedPolicy.
  t.equal((await openssl('ts', '-query', '-data', 'data.txt', '-sha256', '-tspolicy', TSA_POLICY_OID, '-out', 'ours.tsq')).code, 0)
  await post('ours.tsq', 'ours.tsr')
  t.match((await openssl('ts', '-verify', '-in', 'ours.tsr', '-queryfile', 'ours.tsq', '-CAfile', 'ca.pem', '-untrusted', 'tsa.pem')).output, /Verification: OK/)
  t.equal((await openssl('ts', '-query', '-data', 'data.txt', '-sha256', '-tspolicy', '1.2.3.4.5', '-out', 'theirs.tsq')).code, 0)
  await post('theirs.tsq', 'theirs.tsr')
  const theirs = (await openssl('ts', '-reply', '-in', 'theirs.tsr', '-text')).output
  t.match(theirs, /Status: Rejected\./)
  t.match(theirs, /Failure info:\s+the requested TSA policy is not supported/)
})
