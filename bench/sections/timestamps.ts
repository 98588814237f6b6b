// Issue 18's and 22's rows for signature timestamps, measured on what `npm start` runs: one
// POST /api/sign (a 1-page PDF, stamp + certification, then the DSS, and with timestamps the
// document timestamp: B-LTA) on a server that makes B-B signatures
// (SIGNATURE_TIMESTAMPS=off) against one making B-T with its own TSA asked in-process (the
// default), and against one asking that TSA over HTTP (SIGNATURE_TSA_URLS = the first server's
// POST /pki/tsa: what an instance configured with an external TSA pays). Requests alternate
// between the servers so drift in the machine's load falls on all; every answer is checked by
// pdfsig before the timed rounds, and the B-T ones must carry a timestamp token.
import { performance } from 'node:perf_hooks'
import { makePdf } from '../../test/fixtures/pdf/make-pdf.ts'
import { makeStampPng } from '../../test/fixtures/pdf/stamp-image.ts'
import { pdfsigVerdicts } from '../lib/pdfsig.ts'
import { median, ms, pick, x, type Row } from '../lib/rows.ts'
import { startServer, type StartedServer } from '../lib/start-server.ts'

interface Client { name: string; sign(): Promise<Uint8Array> }

/** Signs the demo admin in, makes a library signature with an issued certificate, and returns a signer of `pdf`. */
async function clientOf(name: string, server: StartedServer, pdf: Uint8Array): Promise<Client> {
  const cookie = await server.login()
  const headers = { cookie, 'content-type': 'application/json' }
  const image = `data:image/png;base64,${makeStampPng().toString('base64')}`
  const created = await fetch(`${server.base}/api/signatures`, { method: 'POST', headers, body: JSON.stringify({ label: 'Bench', image, certificate: { mode: 'issue' } }) })
  if (created.status !== 201) throw new Error(`${name}: creating a signature: ${created.status} ${await created.text()}`)
  const signature = ((await created.json()) as { data: { uuid: string } }).data.uuid
  const body = JSON.stringify({ signature, pdf: Buffer.from(pdf).toString('base64'), placements: [{ page: 1, x: 400, y: 60, width: 200, height: 80 }] })
  return {
    name,
    async sign() {
      const response = await fetch(`${server.base}/api/sign`, { method: 'POST', headers, body })
      if (response.status !== 200) throw new Error(`${name}: /api/sign ${response.status} ${await response.text()}`)
      return new Uint8Array(await response.arrayBuffer())
    },
  }
}

/** The signature timestamp token's OID (id-aa-timeStampToken) as DER bytes, in the PDF's hex /Contents. */
const TIMESTAMP_TOKEN_OID_HEX = '060b2a864886f70d010910020e'

export async function run(): Promise<Row[]> {
  const pdf = await makePdf()
  const inProcess = await startServer(undefined, {})
  const servers = [inProcess]
  try {
    const noTimestamps = await startServer(undefined, { SIGNATURE_TIMESTAMPS: 'off' })
    servers.push(noTimestamps)
    const overHttp = await startServer(undefined, { SIGNATURE_TSA_URLS: `${inProcess.base}/pki/tsa` })
    servers.push(overHttp)
    const clients = [
      await clientOf('B-B', noTimestamps, pdf),
      await clientOf('B-T, own TSA in-process', inProcess, pdf),
      await clientOf('B-T, own TSA over HTTP', overHttp, pdf),
    ]
    for (const client of clients) {
      const signed = await client.sign()
      // With timestamps the stored copy also ends with a document timestamp (B-LTA), which pdfsig
      // lists but cannot check; the signature itself must be valid.
      const verdicts = pdfsigVerdicts(signed)
      const expected = client.name.startsWith('B-T') ? 2 : 1
      if (verdicts.length !== expected || verdicts[0] !== 'Signature is Valid.') throw new Error(`${client.name}: pdfsig says ${JSON.stringify(verdicts)}`)
      const stamped = Buffer.from(signed).toString('latin1').toLowerCase().includes(TIMESTAMP_TOKEN_OID_HEX)
      if (stamped !== client.name.startsWith('B-T')) throw new Error(`${client.name}: timestamp token ${stamped ? 'present' : 'missing'}`)
    }
    const times = new Map(clients.map((client) => [client.name, [] as number[]]))
    const rounds = pick(40, 6)
    for (let round = 0; round < rounds; round++) {
      for (const client of round % 2 ? [...clients].reverse() : clients) {
        const start = performance.now()
        await client.sign()
        times.get(client.name)!.push(performance.now() - start)
      }
    }
    const base = median(times.get('B-B')!)
    return clients.slice(1).map((client, i) => {
      const value = median(times.get(client.name)!)
      return {
        id: `T${i + 1}`,
        what: `POST /api/sign, 1-page PDF, npm start: ${client.name} / B-B (SIGNATURE_TIMESTAMPS=off), median of ${rounds}`,
        ours: ms(value), baseline: `B-B ${ms(base)}`, ratio: x(value / base), bar: '', met: null,
        data: { rounds, oursMs: times.get(client.name), baseMs: times.get('B-B') },
      }
    })
  } finally {
    await Promise.all(servers.map((server) => server.stop()))
  }
}
