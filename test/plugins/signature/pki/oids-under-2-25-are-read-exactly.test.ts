// The app's TSA policy is a UUID OID (2.25 + a 128-bit arc). A query naming exactly that policy is
// granted under it; one naming the next UUID (the same arc plus one, which plain-number arithmetic
// reads as the same value) is refused with unacceptedPolicy. openssl writes both queries.
import { readFile, writeFile } from 'node:fs/promises'
import t from 'tap'
import { parseTimestampQuery } from '../../../../plugins/signature/pki/parse-timestamp-query.ts'
import { TSA_POLICY_OID } from '../../../../plugins/signature/pki/respond-to-timestamp-query.ts'
import { buildSignatureApp } from '../../../helpers/signature-app.ts'
import { opensslFolder } from './openssl-tools.ts'

const arc = TSA_POLICY_OID.split('.')[2]!
const NEXT_POLICY = `2.25.${BigInt(arc) + 1n}`

t.test('a query under the TSA policy is granted under it; under the next UUID it is refused', async (t) => {
  const app = await buildSignatureApp(t)
  const { file, openssl } = await opensslFolder(t)
  await writeFile(file('data.txt'), 'stamped\n')
  const ask = async (policy: string, name: string) => {
    t.equal((await openssl('ts', '-query', '-data', 'data.txt', '-sha256', '-tspolicy', policy, '-out', `${name}.tsq`)).code, 0)
    const query = await readFile(file(`${name}.tsq`))
    t.equal(parseTimestampQuery(query).policy, policy, `the parser reads ${policy} exactly`)
    const response = await app.inject({ method: 'POST', url: '/pki/tsa', headers: { 'content-type': 'application/timestamp-query' }, payload: query })
    await writeFile(file(`${name}.tsr`), response.rawPayload)
    return (await openssl('ts', '-reply', '-in', `${name}.tsr`, '-text')).output
  }
  const granted = await ask(TSA_POLICY_OID, 'same')
  t.match(granted, /Status: Granted\./)
  t.match(granted, `Policy OID: ${TSA_POLICY_OID}`)
  const refused = await ask(NEXT_POLICY, 'next')
  t.match(refused, /Status: Rejected\./)
  t.match(refused, /Failure info: (unaccepted policy|the requested TSA policy is not supported)/i)
})
