// Fuzzing: PDFs mutated from the project's own fixtures go through /api/sign (pdf-lib in the PDF
// workers) and the designer's page images (mupdf in the rasterizer's workers). Whatever the
// damage, the answer is a 4xx or a success, never a 500, always within the task time limit, and
// the server still signs and renders afterwards. Fixed seed: a failure replays the same way.
import { mkdir, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { deflateSync } from 'node:zlib'
import fc from 'fast-check'
import { PDFDocument } from 'pdf-lib'
import t from 'tap'
import type { PdfTemplate } from '../../../../plugins/signature/contracts/pdf-template.ts'
import { makePdf } from '../../../fixtures/pdf/make-pdf.ts'
import { objectStreamBomb, onePagePdf } from '../../../fixtures/pdf/malformed-pdf.ts'

// The documented limits, small here so a hang shows within the test's budget.
const TASK_LIMIT_MS = 3000
process.env.SIGNATURE_TASK_TIMEOUT_MS = String(TASK_LIMIT_MS)
process.env.SIGNATURE_PDF_DECODED_MB = '16'
const { buildTestApp, DEMO, login } = await import('../../../helpers/app.ts')
const { signerWithSignature } = await import('../signing/helpers.ts')

/** makePdf's output with fixed dates, so the same seed mutates the same bytes. */
async function fixture(options: Parameters<typeof makePdf>[0]): Promise<Buffer> {
  const doc = await PDFDocument.load(await makePdf(options))
  doc.setCreationDate(new Date(0))
  doc.setModificationDate(new Date(0))
  return Buffer.from(await doc.save({ useObjectStreams: options?.objectStreams ?? false }))
}

const BASES = [
  await fixture({}),
  await fixture({ pages: 3 }),
  await fixture({ objectStreams: true }),
  onePagePdf(),
]

const KEYS = ['/MediaBox', '/CropBox', '/Resources', '/Annots', '/Contents', '/Kids', '/Count', '/Parent', '/Pages', '/Root', '/Type', '/Length', '/Font', '/Size', '/Filter', '/Rotate']
const WRONG_VALUES = ['42', '(a string)', '/Name', '[1 2 3]', '<< /A 1 >>', 'null', 'true', '999 0 R', '-1', '0', '[]', '99999999999999999999', '1e308', '-2147483649', '[0 0 1e308 1e308]', '[0 0 -5 -5]']

const latin1 = (b: Buffer) => b.toString('latin1')
const bytes = (s: string) => Buffer.from(s, 'latin1')

/** Replaces the value after the n-th occurrence of a key (a token, a bracketed array or a reference). */
function replaceValue(pdf: Buffer, key: string, nth: number, value: string): Buffer {
  const text = latin1(pdf)
  const hits = [...text.matchAll(new RegExp(`${key.replace('/', '\\/')}(?![A-Za-z])`, 'g'))]
  if (hits.length === 0) return Buffer.concat([pdf, bytes(`\n${key} ${value}\n`)])
  const at = hits[nth % hits.length]!.index! + key.length
  const rest = text.slice(at)
  const current = /^\s*(\[[^\]]*\]|\d+\s+\d+\s+R|<<[^>]*>>|\([^)]*\)|\/?[^\s/\[\]<>()]+)/.exec(rest)
  const end = at + (current ? current[0].length : 0)
  return bytes(text.slice(0, at) + ' ' + value + text.slice(end))
}

const mutation = fc.oneof(
  fc.record({ kind: fc.constant('truncate' as const), at: fc.double({ min: 0, max: 1, noNaN: true }) }),
  fc.record({ kind: fc.constant('flip' as const), flips: fc.array(fc.tuple(fc.double({ min: 0, max: 1, noNaN: true }), fc.integer({ min: 0, max: 255 })), { minLength: 1, maxLength: 24 }) }),
  fc.record({ kind: fc.constant('wrong-type' as const), key: fc.constantFrom(...KEYS), nth: fc.nat(5), value: fc.constantFrom(...WRONG_VALUES) }),
  fc.record({ kind: fc.constant('huge-number' as const), nth: fc.nat(200), value: fc.constantFrom('99999999999999999999999', '1e308', '-1e308', '2147483648', '4294967296', 'NaN', '-0') }),
  fc.record({ kind: fc.constant('deep-nesting' as const), depth: fc.integer({ min: 100, max: 100_000 }), open: fc.constantFrom('[', '<< /A ') }),
  fc.record({ kind: fc.constant('cycle' as const), shape: fc.constantFrom('kids-self', 'kids-loop', 'parent-loop', 'kids-catalog', 'count-lies') }),
  fc.record({ kind: fc.constant('inflated' as const), megabytes: fc.integer({ min: 1, max: 64 }), where: fc.constantFrom('content', 'object-stream') }),
)

const CYCLES: Record<string, Parameters<typeof onePagePdf>[0]> = {
  'kids-self': { pages: '<< /Type /Pages /Kids [2 0 R] /Count 1 >>' },
  'kids-loop': { pages: '<< /Type /Pages /Kids [3 0 R 2 0 R] /Count 2 >>', page: '<< /Type /Pages /Parent 2 0 R /Kids [2 0 R] /Count 1 >>' },
  'parent-loop': { page: '<< /Type /Page /Parent 3 0 R /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>' },
  'kids-catalog': { pages: '<< /Type /Pages /Kids [1 0 R 3 0 R] /Count 2 >>' },
  'count-lies': { pages: '<< /Type /Pages /Kids [3 0 R] /Count 1000000 >>' },
}

type Mutation = typeof mutation extends fc.Arbitrary<infer T> ? T : never

async function apply(base: Buffer, m: Mutation): Promise<Buffer> {
  switch (m.kind) {
    case 'truncate':
      return base.subarray(0, Math.floor(m.at * base.length))
    case 'flip': {
      const out = Buffer.from(base)
      for (const [at, byte] of m.flips) out[Math.min(out.length - 1, Math.floor(at * out.length))] = byte
      return out
    }
    case 'wrong-type':
      return replaceValue(base, m.key, m.nth, m.value)
    case 'huge-number': {
      const text = latin1(base)
      const numbers = [...text.matchAll(/(?<=[\s\[])\d+(?=[\s\]])/g)]
      const hit = numbers[m.nth % numbers.length]!
      return bytes(text.slice(0, hit.index) + m.value + text.slice(hit.index! + hit[0].length))
    }
    case 'deep-nesting': {
      const close = m.open === '[' ? ']' : ' >>'
      return replaceValue(base, '/MediaBox', 0, `[0 0 792 612] /Deep ${m.open.repeat(m.depth)}1${close.repeat(m.depth)}`)
    }
    case 'cycle':
      return onePagePdf(CYCLES[m.shape])
    case 'inflated': {
      if (m.where === 'object-stream') return objectStreamBomb(m.megabytes * 1024 * 1024)
      const content = deflateSync(Buffer.alloc(m.megabytes * 1024 * 1024, 0x20))
      const text = latin1(onePagePdf())
      const at = text.indexOf('4 0 obj')
      const end = text.indexOf('endobj', at) + 'endobj'.length
      return Buffer.concat([bytes(text.slice(0, at)), bytes(`4 0 obj\n<< /Length ${content.length} /Filter /FlateDecode >>\nstream\n`), content, bytes(`\nendstream\nendobj`), bytes(text.slice(end))])
    }
  }
}
t.test('mutated PDFs through /api/sign and the designer\'s page images: never a 500, never past the task limit', async (t) => {
  const app = await buildTestApp(t)
  const staff = await signerWithSignature(app, DEMO.staff.email)
  const admin = await login(app, DEMO.admin.email)
  const dir = app.signature.disk.path('fuzz')
  await mkdir(dir, { recursive: true })
  let current = ''
  const template: PdfTemplate = {
    key: () => 'fuzz',
    label: () => 'Fuzz',
    slots: () => [],
    renderSample: async () => current,
    renderFor: async () => current,
  }
  app.signature.registry.register(template)
  const box = { page: 1, x: 100, y: 100, width: 100, height: 40 }
  // A request queued behind a stopped task waits for it, and a fresh worker starts: allow for both.
  const budget = TASK_LIMIT_MS * 2 + 3000
  const seen = new Map<number, number>()
  const FUZZ_RUNS = 30
  let runs = 0

  const timed = async (what: string, request: () => Promise<{ statusCode: number; body: string }>) => {
    const started = performance.now()
    const res = await request()
    const took = performance.now() - started
    seen.set(res.statusCode, (seen.get(res.statusCode) ?? 0) + 1)
    if (res.statusCode >= 500) throw new Error(`${what}: ${res.statusCode} ${res.body.slice(0, 300)}`)
    if (took > budget) throw new Error(`${what}: took ${took.toFixed(0)} ms (limit ${budget} ms)`)
  }

  await fc.assert(
    fc.asyncProperty(fc.nat(BASES.length - 1), mutation, async (baseIndex, m) => {
      runs++
      const pdf = await apply(BASES[baseIndex]!, m)
      const label = `${m.kind} of base ${baseIndex}`
      await timed(`/api/sign, ${label}`, () => app.inject({ method: 'POST', url: '/api/sign', headers: { cookie: staff.cookie }, payload: { signature: staff.signature, pdf: pdf.toString('base64') || 'AA==', placements: [box] } }))
      current = path.join(dir, `case-${runs}.pdf`)
      await writeFile(current, pdf)
      await timed(`designer meta, ${label}`, () => app.inject({ url: '/admin/signature-templates/fuzz/design/meta', headers: { cookie: admin, accept: 'application/json' } }))
      await timed(`designer page 1, ${label}`, () => app.inject({ url: '/admin/signature-templates/fuzz/design/pages/1', headers: { cookie: admin, accept: 'application/json' } }))
    }),
    // A fixed number of cases, not as many as fit in a time: on a loaded machine (CI's parallel
    // jobs) a time limit let as few as 19 through. 30 take ~8 s on a quiet machine.
    { seed: 15_2026, numRuns: FUZZ_RUNS, endOnFailure: true },
  )
  t.equal(runs, FUZZ_RUNS, `${runs} mutated PDFs, answers by status: ${JSON.stringify(Object.fromEntries(seen))}`)

  // The server still works: it signs a good PDF and renders a page.
  const good = await app.inject({ method: 'POST', url: '/api/sign', headers: { cookie: staff.cookie }, payload: { signature: staff.signature, pdf: Buffer.from(await makePdf()).toString('base64'), placements: [box] } })
  t.equal(good.statusCode, 200, 'a good PDF is signed afterwards')
  const page = await app.inject({ url: '/admin/signature-templates/payslip/design/pages/1', headers: { cookie: admin } })
  t.equal(page.statusCode, 200, 'a page image is rendered afterwards')
})
