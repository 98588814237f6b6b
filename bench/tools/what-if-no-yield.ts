// What-if for rows 5b and 6: pdf-lib yields to the event loop with setTimeout(0) every 100 parsed
// and every 50 written objects (PDFDocument.load parseSpeed, save objectsPerTick). In a worker
// thread that buys nothing and costs >= 1 ms per yield. This patches the defaults in this process
// only and times signDocument / signField with and without, against @libpdf/core.
//   node --import tsx bench/tools/what-if-no-yield.ts
import { PDF, P12Signer } from '@libpdf/core'
import { PDFDocument } from 'pdf-lib'
import { createCertificateAuthority, issueUserCertificate, readP12 } from '../../plugins/signature/certificates/index.ts'
import { freezeDocument, signDocument, signField } from '../../plugins/signature/pdf/index.ts'
import { makePdf } from '../../test/fixtures/pdf/make-pdf.ts'
import { makeStampPng } from '../../test/fixtures/pdf/stamp-image.ts'
import { median } from '../lib/rows.ts'

const ca = createCertificateAuthority({ commonName: 'Bench CA' })
const issued = Array.from({ length: 10 }, (_, i) => issueUserCertificate(ca, { name: `S${i}`, email: `s${i}@example.org` }))
const ids = issued.map((c) => readP12(c.p12, c.password))
const libSigner = await P12Signer.create(issued[0]!.p12, issued[0]!.password)
const image = makeStampPng()
const one = await makePdf({ pages: 1, objectStreams: true })
const hundred = await makePdf({ pages: 100, objectStreams: true })
const slots = (pages: number) => ids.map((_, i) => ({ name: `slot-${i + 1}`, page: pages, x: 20 + (i % 5) * 150, y: 40 + Math.floor(i / 5) * 100, width: 140, height: 80 }))

async function time(fn: () => Promise<unknown>, runs = 25) {
  for (let i = 0; i < 5; i++) await fn()
  const xs: number[] = []
  for (let i = 0; i < runs; i++) { const t0 = performance.now(); await fn(); xs.push(performance.now() - t0) }
  return median(xs)
}
async function measure() {
  const ours100 = await time(() => signDocument(hundred, { stamps: [{ page: 1, x: 400, y: 60, width: 200, height: 80, image }], signer: ids[0]!, certify: {} }))
  const lib100 = await time(async () => (await (await PDF.load(hundred)).sign({ signer: libSigner })).bytes)
  let nine = await freezeDocument(hundred, { fields: slots(100), signer: ids[0]! })
  for (let i = 0; i < 9; i++) nine = await signField(nine, { fieldName: `slot-${i + 1}`, image, signer: ids[i]! })
  const frozenOne = await freezeDocument(one, { fields: slots(1), signer: ids[0]! })
  const tenth = await time(() => signField(nine, { fieldName: 'slot-10', image, signer: ids[9]! }))
  const first = await time(() => signField(frozenOne, { fieldName: 'slot-1', image, signer: ids[0]! }))
  return { 'signDocument 100p ms': ours100.toFixed(1), 'libpdf 100p ms': lib100.toFixed(1), 'row 5b ratio': (ours100 / lib100).toFixed(2), '10th signer 100p ms': tenth.toFixed(1), '1st signer 1p ms': first.toFixed(1), 'row 6 ratio': (tenth / first).toFixed(2) }
}

const as = await measure()
const load = PDFDocument.load.bind(PDFDocument)
PDFDocument.load = ((bytes: Uint8Array, options = {}) => load(bytes, { parseSpeed: Infinity, ...options })) as typeof PDFDocument.load
const save = PDFDocument.prototype.save
PDFDocument.prototype.save = function (options = {}) { return save.call(this, { objectsPerTick: Infinity, ...options }) }
const patched = await measure()
console.table({ 'as is': as, 'pdf-lib without yields': patched })
