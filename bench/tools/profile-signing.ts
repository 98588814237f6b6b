// Profiles the two signing rows that grow with the document: signDocument on a 100-page PDF
// (row 5b) and the 10th signer's signField on a 100-page session (row 6).
//   node --import tsx bench/tools/profile-signing.ts [signDocument|signField]
//   node --import tsx bench/tools/summarize-profile.ts bench/results/profiles/<printed file>
import { mkdir, writeFile } from 'node:fs/promises'
import { Session } from 'node:inspector/promises'
import { createCertificateAuthority, issueUserCertificate, readP12 } from '../../plugins/signature/certificates/index.ts'
import { freezeDocument, signDocument, signField } from '../../plugins/signature/pdf/index.ts'
import { makePdf } from '../../test/fixtures/pdf/make-pdf.ts'
import { makeStampPng } from '../../test/fixtures/pdf/stamp-image.ts'

const which = process.argv[2] ?? 'signDocument'
const ca = createCertificateAuthority({ commonName: 'Bench CA' })
const identities = Array.from({ length: 10 }, (_, i) => issueUserCertificate(ca, { name: `S${i}`, email: `s${i}@example.org` })).map((c) => readP12(c.p12, c.password))
const image = makeStampPng()
const pdf = await makePdf({ pages: 100, objectStreams: true })
const slots = identities.map((_, i) => ({ name: `slot-${i + 1}`, page: 100, x: 20 + (i % 5) * 150, y: 40 + Math.floor(i / 5) * 100, width: 140, height: 80 }))
let nine = await freezeDocument(pdf, { fields: slots, signer: identities[0]! })
for (let i = 0; i < 9; i++) nine = await signField(nine, { fieldName: `slot-${i + 1}`, image, signer: identities[i]! })
const task = which === 'signField'
  ? () => signField(nine, { fieldName: 'slot-10', image, signer: identities[9]! })
  : () => signDocument(pdf, { stamps: [{ page: 1, x: 400, y: 60, width: 200, height: 80, image }], signer: identities[0]!, certify: {} })
for (let i = 0; i < 10; i++) await task()
const inspector = new Session()
inspector.connect()
await inspector.post('Profiler.enable')
await inspector.post('Profiler.setSamplingInterval', { interval: 100 })
await inspector.post('Profiler.start')
const t0 = performance.now()
const runs = 60
for (let i = 0; i < runs; i++) await task()
const elapsed = performance.now() - t0
const { profile } = await inspector.post('Profiler.stop')
const dir = new URL('../results/profiles/', import.meta.url)
await mkdir(dir, { recursive: true })
const out = new URL(`${which}-${Date.now()}.cpuprofile`, dir)
await writeFile(out, JSON.stringify(profile))
console.log(`${which}: ${(elapsed / runs).toFixed(1)} ms per call (profiled); profile: ${out.pathname}`)
