// Reading every revision of a PDF costs revisions x objects (issue 35 item 11: 20,000 updates over
// 100,000 objects held the only worker 15 s). An upload past the verify limits is refused with a
// stable code from a byte scan, before the verify lane starts a worker; one within them is read.
import t from 'tap'
import { countObjects, countPdfStructure, countRevisions } from '../../../../plugins/signature/pdf/count-pdf-structure.ts'
import { buildSignatureApp } from '../../../helpers/signature-app.ts'
import { makeManyRevisionsPdf } from '../../../fixtures/pdf/many-revisions-pdf.ts'
import { makePdf } from '../../../fixtures/pdf/make-pdf.ts'

t.test('the byte scan counts revisions and objects as the file declares them', async (t) => {
  // 3 fixed objects + 50 + one per update; one revision + one per update.
  t.same(countPdfStructure(makeManyRevisionsPdf({ objects: 50, revisions: 20 })), { revisions: 21, objects: 73 })
  t.same(countPdfStructure(await makePdf()).revisions, 1, 'a file written at once is one revision')
  // Past its bound it stops and says "more": a caller with a limit needs no exact count.
  const many = makeManyRevisionsPdf({ objects: 50, revisions: 20 })
  t.same([countRevisions(many, 5), countObjects(many, 10)], [6, 11])
  const objectHeaders = Buffer.from(`%PDF-1.7\n${'1 0 obj\n'.repeat(1_000_000)}`)
  t.equal(countObjects(objectHeaders, 1000), 1001, 'a file of nothing but object headers is counted only up to the bound')
  const objectStream = Buffer.from('%PDF-1.7\n5 0 obj\n<< /Type /ObjStm /N 40 /First 300 /Length 0 >>\nstream\n\nendstream\nendobj\n')
  t.equal(countPdfStructure(objectStream).objects, 41, 'an object stream counts for the objects it holds')
  const noStartxref = Buffer.from(`%PDF-1.7\n${'%%EOF\n'.repeat(5000)}`)
  t.equal(countPdfStructure(noStartxref).revisions, 1, '"%%EOF" without a cross-reference section before it is no revision')
})

t.test('past max_revisions, max_objects or revisions x objects: 422/413 with a stable code, no worker started', async (t) => {
  const app = await buildSignatureApp(t, { config: { verify: { rate_per_minute: 1000 } } })
  const post = (pdf: Uint8Array) => app.inject({ method: 'POST', url: '/api/verify', headers: { 'content-type': 'application/pdf' }, payload: Buffer.from(pdf) })
  const refused: Array<[string, Buffer, number, string]> = [
    ['1,001 revisions (default max_revisions 1,000)', makeManyRevisionsPdf({ objects: 10, revisions: 1000 }), 422, 'ERR_PDF_TOO_MANY_REVISIONS'],
    ['100,004 objects (default max_objects 100,000)', makeManyRevisionsPdf({ objects: 100_001, revisions: 0 }), 413, 'ERR_PDF_TOO_MANY_OBJECTS'],
    ['801 revisions of 3,603 objects (default revisions x objects 2,000,000)', makeManyRevisionsPdf({ objects: 2_800, revisions: 800 }), 422, 'ERR_PDF_TOO_COSTLY_TO_VERIFY'],
  ]
  for (const [name, pdf, status, code] of refused) {
    const res = await post(pdf)
    t.equal(res.statusCode, status, `${name}: ${res.body.slice(0, 200)}`)
    t.equal(res.json().code, code, name)
  }
  t.same(app.signature.verifying.stats, { workers: 0, busy: 0, queued: 0 }, 'refused before the lane: no verify worker was ever started')
  t.equal(app.signature.pdf.stats.workers, 0, 'nor a PDF worker')

  const within = await post(makeManyRevisionsPdf({ objects: 200, revisions: 30 }))
  t.equal(within.statusCode, 200, within.body.slice(0, 200))
  t.equal(within.json().document.revisions, 31)
  t.equal(app.signature.verifying.stats.workers, 1, 'read in the verify lane')
  t.equal(app.signature.pdf.stats.workers, 0, 'not in the workers that sign')
})

t.test('the limits are settings', async (t) => {
  const app = await buildSignatureApp(t, { config: { verify: { max_revisions: 10, max_objects: 500, max_revision_objects: 1_000 } } })
  const post = (pdf: Uint8Array) => app.inject({ method: 'POST', url: '/api/verify', headers: { 'content-type': 'application/pdf' }, payload: Buffer.from(pdf) })
  t.equal((await post(makeManyRevisionsPdf({ objects: 5, revisions: 10 }))).json().code, 'ERR_PDF_TOO_MANY_REVISIONS')
  t.equal((await post(makeManyRevisionsPdf({ objects: 498, revisions: 0 }))).json().code, 'ERR_PDF_TOO_MANY_OBJECTS')
  t.equal((await post(makeManyRevisionsPdf({ objects: 200, revisions: 5 }))).json().code, 'ERR_PDF_TOO_COSTLY_TO_VERIFY')
})
