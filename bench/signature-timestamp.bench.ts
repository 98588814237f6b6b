// One signature with an RFC 3161 timestamp from a local TSA (openssl ts -reply behind HTTP, a
// process per request, as test/helpers/openssl-tsa.ts runs it) against the same signature
// without one (B-B), on a 1-page document, in the calling thread.
// Run: node --import tsx bench/signature-timestamp.bench.ts   (never part of npm test)
import { issueUserCertificate, createCertificateAuthority, readP12 } from '../plugins/signature/certificates/index.ts'
import { signDocument } from '../plugins/signature/pdf/index.ts'
import { makePdf } from '../test/fixtures/pdf/make-pdf.ts'
import { makeStampPng } from '../test/fixtures/pdf/stamp-image.ts'
import { startOpensslTsa } from '../test/helpers/openssl-tsa.ts'
import { median } from './lib/rows.ts'

const runs = Number(process.env.RUNS ?? 15)
const ca = createCertificateAuthority({ commonName: 'Bench CA' })
const issued = issueUserCertificate(ca, { name: 'Bench Signer', email: 'bench@example.org' })
const signer = readP12(issued.p12, issued.password)
const pdf = await makePdf()
const stamps = [{ page: 1, x: 400, y: 60, width: 200, height: 80, image: makeStampPng() }]
const tsa = await startOpensslTsa()
try {
  const without = () => signDocument(pdf, { stamps, signer, timestamps: null })
  const withTsa = () => signDocument(pdf, { stamps, signer, timestamps: { urls: [tsa.url] } })
  // Alternated, so a change in the machine's load weighs on both alike.
  const times: { without: number[]; with: number[] } = { without: [], with: [] }
  for (let i = 0; i < 3; i++) { await without(); await withTsa() }
  for (let i = 0; i < runs; i++) {
    for (const [name, run] of [['without', without], ['with', withTsa]] as const) {
      const start = performance.now()
      await run()
      times[name].push(performance.now() - start)
    }
  }
  const withoutMs = median(times.without)
  const withMs = median(times.with)
  const rows = [
    { step: 'sign, no timestamp (B-B)', ms: withoutMs.toFixed(1), ratio: '1.00' },
    { step: 'sign + openssl TSA over HTTP (B-T)', ms: withMs.toFixed(1), ratio: (withMs / withoutMs).toFixed(2) },
  ]
  console.table(rows)
  console.log(`median of ${runs} alternated runs each, after 3 warm-ups; TSA queries answered: ${tsa.queries.length}`)
} finally {
  await tsa.close()
}
