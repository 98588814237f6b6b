// Times of the PDF signing engine on a 1-page and a 100-page document.
// Run: node --import tsx bench/sign-pdf.bench.ts   (never part of npm test)
// Every ratio is against a baseline measured in the same run.
import { createHash } from 'node:crypto'
import { P12Signer } from '@signpdf/signer-p12'
import { createCertificateAuthority, issueUserCertificate, readP12 } from '../plugins/signature/certificates/index.ts'
import { buildSignatureDictionary } from '../plugins/signature/pdf/build-signature-dictionary.ts'
import { createSignatureField } from '../plugins/signature/pdf/create-signature-field.ts'
import { embedStampImage } from '../plugins/signature/pdf/embed-stamp-image.ts'
import { freezeDocument, normalizePdf, signDocument, signField } from '../plugins/signature/pdf/index.ts'
import { loadForRewrite, saveNormalized } from '../plugins/signature/pdf/normalize-pdf.ts'
import { createDetachedCms } from '../plugins/signature/pdf/pkcs7-signer.ts'
import { insertSignature, prepareSignature } from '../plugins/signature/pdf/signature-placeholder.ts'
import { drawStampImage } from '../plugins/signature/pdf/sign-document.ts'
import { makePdf } from '../test/fixtures/pdf/make-pdf.ts'
import { makeStampPng } from '../test/fixtures/pdf/stamp-image.ts'
import { pdfsigVerdicts } from './lib/pdfsig.ts'
import { medianTime } from './lib/time.ts'

const rows: Array<{ doc: string; step: string; ms: number; baseline?: string; ratio?: number }> = []
const record = (doc: string, step: string, ms: number, baseline?: string) => {
  const base = baseline ? rows.find((r) => r.doc === doc && r.step === baseline)?.ms : undefined
  rows.push({ doc, step, ms, baseline, ratio: base ? ms / base : undefined })
}

let start = performance.now()
const ca = createCertificateAuthority({ commonName: 'Bench CA' })
const caMs = performance.now() - start
const app = issueUserCertificate(ca, { name: 'Bench Application', email: 'app@example.org' })
const signers = Array.from({ length: 10 }, (_, i) => issueUserCertificate(ca, { name: `Signer ${i + 1}`, email: `s${i + 1}@example.org` }))
const appIdentity = readP12(app.p12, app.password)
const image = makeStampPng()
const stamp = { page: 1, x: 400, y: 60, width: 200, height: 80, image }
record('-', 'create CA (RSA-2048)', caMs)
record('-', 'issue user certificate + PKCS#12', await medianTime(5, () => issueUserCertificate(ca, { name: 'X', email: 'x@example.org' })))
record('-', 'readP12 (forge PKCS#12 decrypt)', await medianTime(10, () => readP12(app.p12, app.password)))

for (const pages of [1, 100]) {
  const doc = `${pages} page${pages > 1 ? 's' : ''}`
  const pdf = await makePdf({ pages, objectStreams: true })
  const runs = pages === 1 ? 20 : 8

  record(doc, 'normalize', await medianTime(runs, () => normalizePdf(pdf)))
  record(doc, 'stamp (load + draw + save)', await medianTime(runs, async () => {
    const d = await loadForRewrite(pdf)
    const img = await embedStampImage(d, image)
    drawStampImage(d.getPage(0), img, stamp)
    return saveNormalized(d, Buffer.from('bench'))
  }))

  // A prepared file with its placeholder, so that only the signing step is timed.
  const d = await loadForRewrite(pdf)
  const signingTime = new Date()
  const sig = buildSignatureDictionary(d.context, { identity: appIdentity, signingTime })
  createSignatureField(d, { name: 'Bench', page: d.getPage(0), value: sig })
  const unsigned = await saveNormalized(d, Buffer.from('bench'))

  const ours = () => {
    const prepared = prepareSignature(unsigned)
    const [head, tail] = prepared.signedRanges
    const digest = createHash('sha256').update(head).update(tail).digest()
    return insertSignature(prepared, createDetachedCms(digest, appIdentity))
  }
  const theirs = async () => {
    const prepared = prepareSignature(unsigned)
    // A P12Signer consumes its forge buffer on the first sign(), so it is single-use.
    const p12Signer = new P12Signer(app.p12, { passphrase: app.password })
    const cms = await p12Signer.sign(Buffer.concat(prepared.signedRanges), signingTime)
    return insertSignature(prepared, cms)
  }
  record(doc, 'sign: @signpdf P12Signer (forge RSA)', await medianTime(runs, theirs))
  record(doc, 'sign: pkcs7-signer (node:crypto)', await medianTime(runs, ours), 'sign: @signpdf P12Signer (forge RSA)')
  const verdicts = [pdfsigVerdicts(await theirs())[0], pdfsigVerdicts(ours())[0]]
  console.log(`${doc}: pdfsig on P12Signer output: ${verdicts[0]}; on pkcs7-signer output: ${verdicts[1]}`)

  record(doc, 'signDocument, certify (P12 opened per call)', await medianTime(runs, () => signDocument(pdf, { stamps: [stamp], signer: app, certify: {} })))
  record(doc, 'signDocument, certify (identity opened once)', await medianTime(runs, () => signDocument(pdf, { stamps: [stamp], signer: appIdentity, certify: {} })), 'signDocument, certify (P12 opened per call)')

  const slots = signers.map((_, i) => ({ name: `slot-${i + 1}`, page: pages, x: 20 + (i % 5) * 150, y: 40 + Math.floor(i / 5) * 100, width: 140, height: 80 }))
  record(doc, 'freezeDocument (10 empty fields + certification)', await medianTime(runs, () => freezeDocument(pdf, { fields: slots, signer: appIdentity })))
  const identities = signers.map((s) => readP12(s.p12, s.password))
  const perSigner: number[][] = signers.map(() => [])
  let last: Uint8Array = new Uint8Array()
  for (let round = 0; round < Math.max(3, Math.floor(runs / 2)); round++) {
    let current = await freezeDocument(pdf, { fields: slots, signer: appIdentity })
    for (const [i, identity] of identities.entries()) {
      const t0 = performance.now()
      current = await signField(current, { fieldName: `slot-${i + 1}`, image, signer: identity })
      perSigner[i]!.push(performance.now() - t0)
    }
    last = current
  }
  const med = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!
  record(doc, 'signField: 1st signer', med(perSigner[0]!.slice(1)))
  record(doc, 'signField: 10th signer', med(perSigner[9]!.slice(1)), 'signField: 1st signer')
  const finalVerdicts = pdfsigVerdicts(last)
  console.log(`${doc}: after 10 signers pdfsig lists ${finalVerdicts.length} signatures, ${finalVerdicts.filter((v) => v === 'Signature is Valid.').length} valid; ${(last.length / 1024).toFixed(0)} KiB`)
}

console.log()
console.log(`${'document'.padEnd(9)} ${'step'.padEnd(52)} ${'ms'.padStart(9)}  ratio`)
for (const row of rows) {
  const ratio = row.ratio === undefined ? '' : `${row.ratio.toFixed(3)}x of "${row.baseline}"`
  console.log(`${row.doc.padEnd(9)} ${row.step.padEnd(52)} ${row.ms.toFixed(2).padStart(9)}  ${ratio}`)
}
const stampRows = ['1 page', '100 pages'].map((doc) => rows.find((r) => r.doc === doc && r.step === 'signField: 1st signer')!.ms)
console.log(`\nsignField 1st signer, 100 pages vs 1 page: ${(stampRows[1]! / stampRows[0]!).toFixed(2)}x`)
