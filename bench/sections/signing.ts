// Rows 5 and 6: one signature (stamp + PKCS#7 + DocMDP certification) by our engine against
// @libpdf/core signing the same file invisibly without DocMDP; and the 10th signer of a session
// on a 100-page document against the 1st signer on a 1-page one. Both engines get an identity
// opened once (our readP12, LibPDF's P12Signer.create), so PKCS#12 decryption is not timed.
import { performance } from 'node:perf_hooks'
import { PDF, P12Signer as LibPdfP12Signer } from '@libpdf/core'
import { Bench } from 'tinybench'
import { createCertificateAuthority, issueUserCertificate, readP12 } from '../../plugins/signature/certificates/index.ts'
import { freezeDocument, signDocument, signField } from '../../plugins/signature/pdf/index.ts'
import { makePdf } from '../../test/fixtures/pdf/make-pdf.ts'
import { makeStampPng } from '../../test/fixtures/pdf/stamp-image.ts'
import { pdfsigVerdicts } from '../lib/pdfsig.ts'
import { median, ms, pick, x, type Row } from '../lib/rows.ts'

function assertValid(label: string, bytes: Uint8Array, count = 1) {
  const verdicts = pdfsigVerdicts(bytes)
  if (verdicts.length !== count || verdicts.some((v) => v !== 'Signature is Valid.')) throw new Error(`${label}: pdfsig says ${JSON.stringify(verdicts)}`)
}

async function timeTask(name: string, fn: () => Promise<unknown>) {
  const bench = new Bench({ time: pick(3000, 500), warmupTime: pick(500, 100), iterations: pick(20, 5), warmupIterations: 3 })
  bench.add(name, fn)
  await bench.run()
  const task = bench.tasks[0]!
  const result = task.result as unknown as { latency?: { p50: number; p99: number; mean: number; samplesCount?: number }; error?: unknown }
  if (!result?.latency) throw new Error(`${name}: ${String(result?.error ?? 'no result')}`)
  return { p50: result.latency.p50, p99: result.latency.p99, mean: result.latency.mean, samples: result.latency.samplesCount }
}

export async function run(): Promise<Row[]> {
  const ca = createCertificateAuthority({ commonName: 'Bench CA' })
  const issued = issueUserCertificate(ca, { name: 'Bench Signer', email: 'signer@example.org' })
  const identity = readP12(issued.p12, issued.password)
  const libpdfSigner = await LibPdfP12Signer.create(issued.p12, issued.password)
  const image = makeStampPng()
  const rows: Row[] = []

  for (const pages of [1, 100]) {
    const pdf = await makePdf({ pages, objectStreams: true })
    const ours = () => signDocument(pdf, { stamps: [{ page: 1, x: 400, y: 60, width: 200, height: 80, image }], signer: identity, certify: {} })
    const theirs = async () => (await (await PDF.load(pdf)).sign({ signer: libpdfSigner })).bytes
    assertValid(`ours, ${pages} pages`, await ours())
    assertValid(`libpdf, ${pages} pages`, await theirs())
    const libpdf = await timeTask(`libpdf ${pages}`, theirs)
    const mine = await timeTask(`ours ${pages}`, ours)
    const ratio = mine.p50 / libpdf.p50
    rows.push({
      id: pages === 1 ? '5a' : '5b', what: `One signature, ${pages}-page PDF: stamp + PKCS#7 + DocMDP / @libpdf/core invisible, no DocMDP (median)`,
      ours: ms(mine.p50), baseline: `libpdf ${ms(libpdf.p50)}`, ratio: x(ratio), bar: '<= 1.50', met: ratio <= 1.5,
      data: { pages, inputBytes: pdf.length, ours: mine, libpdf, ratio },
    })
  }

  // A session: freeze once (10 empty fields + certification), then 10 signers one after another.
  const signers = Array.from({ length: 10 }, (_, i) => issueUserCertificate(ca, { name: `Signer ${i + 1}`, email: `s${i + 1}@example.org` }))
  const identities = signers.map((s) => readP12(s.p12, s.password))
  const session = async (pages: number, upTo: number) => {
    const pdf = await makePdf({ pages, objectStreams: true })
    const slots = identities.map((_, i) => ({ name: `slot-${i + 1}`, page: pages, x: 20 + (i % 5) * 150, y: 40 + Math.floor(i / 5) * 100, width: 140, height: 80 }))
    const times: number[][] = identities.map(() => [])
    let last: Uint8Array = new Uint8Array()
    for (let round = 0; round < pick(6, 2) + 1; round++) {
      let current = await freezeDocument(pdf, { fields: slots, signer: identity })
      for (let i = 0; i < upTo; i++) {
        const t0 = performance.now()
        current = await signField(current, { fieldName: `slot-${i + 1}`, image, signer: identities[i]! })
        // Round 0 is the warm-up.
        if (round > 0) times[i]!.push(performance.now() - t0)
      }
      last = current
    }
    return { times, last }
  }
  const one = await session(1, 1)
  const hundred = await session(100, 10)
  assertValid('session, 100 pages, 10 signers + certification', hundred.last, 11)
  const first = median(one.times[0]!)
  const tenth = median(hundred.times[9]!)
  rows.push({
    id: '6', what: '10th signer of a session on a 100-page PDF / 1st signer on a 1-page PDF (incremental update, median)',
    ours: ms(tenth), baseline: `1st, 1 page ${ms(first)}`, ratio: x(tenth / first), bar: '<= 3.00', met: tenth / first <= 3,
    data: { tenthMs: hundred.times[9], firstMs: one.times[0], hundredPagesPerSigner: hundred.times.map(median), finalBytes: hundred.last.length, ratio: tenth / first },
  })
  return rows
}
