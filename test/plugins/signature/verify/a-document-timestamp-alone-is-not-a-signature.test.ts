// Anyone can get a document timestamp for any file from the app's anonymous /pki/tsa. It proves
// the file existed at a time; it does not say that anybody signed or approved it. A PDF whose
// only signature is a document timestamp (/SubFilter /ETSI.RFC3161) is therefore not "Valid":
// the report says nobody signed it, with a warning and the timestamp's time.
import t from 'tap'
import { appendDocumentTimestamp } from '../../../../plugins/signature/ltv/append-document-timestamp.ts'
import { buildTestApp } from '../../../helpers/app.ts'
import { pdfsig } from '../../../fixtures/pdf/checkers.ts'
import { makePdf } from '../../../fixtures/pdf/make-pdf.ts'

t.setTimeout(120_000)

t.test('a PDF timestamped by the public TSA and signed by nobody: warning, "nobody signed it", with the time', async (t) => {
  const app = await buildTestApp(t)
  const origin = await app.listen({ host: '127.0.0.1', port: 0 })
  const stamped = await appendDocumentTimestamp(await makePdf(), { urls: [`${origin}/pki/tsa`] })

  const res = await app.inject({ method: 'POST', url: '/api/verify', headers: { 'content-type': 'application/pdf' }, payload: stamped })
  t.equal(res.statusCode, 200, res.body.slice(0, 200))
  const report = res.json()
  t.equal(report.signatures.length, 1)
  const [timestamp] = report.signatures
  t.match(timestamp, { kind: 'document-timestamp', subFilter: 'ETSI.RFC3161', integrity: 'valid', trust: 'trusted', timestamp: { valid: true, time: /^\d{4}-\d\d-\d\dT/ } })
  t.equal(report.verdict, 'warning', report.summary)
  t.match(report.summary, /^Nobody signed this document\./)
  t.match(report.summary, timestamp.timestamp.time, 'the summary gives the time the timestamp proves')
  t.equal(report.document.level, null)

  // pdfsig 22.12 lists the timestamp but cannot check ETSI.RFC3161 at all.
  const checked = await pdfsig(stamped)
  t.equal(checked.signatures.length, 1)
  t.comment(`pdfsig: ${checked.signatures[0]!.validation}`)
})
