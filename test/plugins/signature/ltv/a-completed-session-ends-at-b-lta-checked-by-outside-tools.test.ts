// Issue 18 item 4 through the real app: when the last signer signs, the session's document gets
// a /DSS (every certificate, OCSP response and CRL its signatures and timestamps need, a /VRI per
// signature) and a document timestamp, as two more incremental updates. Judged by programs
// nobody here wrote: pdfsig (every signature valid, the document timestamp too), qpdf --check,
// mupdf's validateChangeHistory() (0 after the DSS and after the timestamp), openssl ts -verify
// of the timestamp token against the app's CA, openssl ocsp / crl parsing the DSS. Every earlier
// revision stays a byte prefix. Then the archive renewal API adds a fresh DSS and timestamp.
import { readdir, writeFile } from 'node:fs/promises'
import path from 'node:path'
import t from 'tap'
import { buildTestApp, DEMO, login } from '../../../helpers/app.ts'
import { csrfFor } from '../../../helpers/pages.ts'
import { mupdfChangeHistory, pdfsig, qpdfCheck } from '../../../fixtures/pdf/checkers.ts'
import { dssStreams, newestSignatureValue } from '../../../fixtures/pdf/pades-parts.ts'
import { makeStampPng } from '../../../fixtures/pdf/stamp-image.ts'
import { opensslFolder } from '../pki/openssl-tools.ts'

t.setTimeout(240_000)

/** The file as it was before its last incremental update. */
function withoutLastRevision(pdf: Buffer): Buffer {
  const end = pdf.lastIndexOf('%%EOF', pdf.length - 7, 'latin1')
  return pdf.subarray(0, end + 6)
}

t.test('the last signature of a session is followed by a DSS and a document timestamp', async (t) => {
  const app = await buildTestApp(t)
  const [admin, staff, manager] = await Promise.all([DEMO.admin, DEMO.staff, DEMO.manager].map((who) => login(app, who.email)))
  const image = `data:image/png;base64,${makeStampPng().toString('base64')}`
  const signatureOf: Record<string, string> = {}
  for (const [who, cookie] of [['staff', staff!], ['manager', manager!]] as const) {
    const res = await app.inject({ method: 'POST', url: '/api/signatures', headers: { cookie }, payload: { label: 'Mine', image, certificate: { mode: 'issue' } } })
    signatureOf[who] = res.json().data.uuid
  }
  const created = await app.inject({ method: 'POST', url: '/api/signing-sessions', headers: { cookie: admin! }, payload: { template: 'daily-time-record', signable: 'dtr-staff-2026-03', mode: 'sequential' } })
  const session = created.json().data
  for (const [cookie, who, request] of [[staff!, 'staff', session.requests[0]], [manager!, 'manager', session.requests[1]]] as const) {
    const res = await app.inject({
      method: 'POST', url: '/app/signature-templates/daily-time-record/signer/finalize',
      headers: { cookie, 'x-csrf-token': await csrfFor(app, cookie) }, payload: { signature: signatureOf[who], request: request.id, placements: [] },
    })
    t.equal(res.statusCode, 200, res.body)
  }

  const detail = (await app.inject({ url: `/api/signing-sessions/${session.id}`, headers: { cookie: admin! } })).json().data
  t.equal(detail.status, 'completed')
  t.same(detail.events.slice(-2).map((e: any) => e.event), ['completed', 'sealed'], 'the trail records the sealing')
  const sealedEvent = detail.events.at(-1)
  t.equal(sealedEvent.detail, null, 'nothing was missing: every certificate is the app CA\'s')
  const download = await app.inject({ url: `/api/signing-sessions/${session.id}/document`, headers: { cookie: staff! } })
  const pdf = download.rawPayload
  t.equal(download.headers['x-document-sha256'], sealedEvent.sha256After)

  // Every earlier revision, as stored, is an unchanged prefix of the sealed file.
  const folder = app.signature.disk.path(`sessions/${session.id}`)
  const revisions = (await readdir(folder)).filter((f) => /^\d{3}-/.test(f)).sort()
  t.match(revisions, [/^000-frozen/, /^001-employee/, /^002-supervisor/, /^003-sealed/])
  for (const name of revisions.slice(0, -1)) {
    const earlier = await app.signature.disk.get(`sessions/${session.id}/${name}`)
    t.ok(pdf.subarray(0, earlier.length).equals(earlier), `${name} is a byte prefix of the sealed file`)
  }

  const { signatures, output } = await pdfsig(pdf)
  t.equal(signatures.length, 4, output)
  // pdfsig 22.12 lists an ETSI.RFC3161 document timestamp but cannot check it ("Unimplemented
  // Feature"); openssl ts -verify checks it below.
  t.ok(signatures.slice(0, -1).every((s) => s.valid), `pdfsig: every signature valid\n${output}`)
  t.match(signatures.at(-1), { fieldName: 'Document timestamp', validation: /not yet been verified/ })
  t.same(signatures.filter((s) => s.totalDocumentSigned).map((s) => s.fieldName), ['Document timestamp'], 'the document timestamp covers the whole file')
  t.ok((await qpdfCheck(pdf)).clean, 'qpdf --check is clean')
  const dssOnly = withoutLastRevision(pdf)
  t.equal((await mupdfChangeHistory(dssOnly)).verdict, 0, 'mupdf: the DSS update is allowed under DocMDP P=2')
  t.equal((await mupdfChangeHistory(pdf)).verdict, 0, 'mupdf: the document timestamp is allowed too')

  const { file, openssl } = await opensslFolder(t)
  await writeFile(file('ca.pem'), (await app.inject({ url: '/pki/ca.pem' })).body)
  const token = newestSignatureValue(pdf)
  await writeFile(file('token.der'), token.der)
  await writeFile(file('covered.bin'), token.covered)
  const verified = await openssl('ts', '-verify', '-data', 'covered.bin', '-in', 'token.der', '-token_in', '-CAfile', 'ca.pem')
  t.match(verified.output, /Verification: OK/, `openssl ts -verify: ${verified.output}`)

  const dss = await dssStreams(pdf)
  t.equal(dss.vriKeys.length, 3, 'a /VRI entry for the certification and both signatures')
  t.ok(dss.vriKeys.every((k) => /^[0-9A-F]{40}$/.test(k)))
  t.ok(dss.certs.length >= 5, `certificates: the CA, the app signer, two signers, the TSA (${dss.certs.length})`)
  t.equal(dss.ocsps.length, 1, 'one OCSP response from the CA answers for every certificate it issued')
  for (const [i, ocsp] of dss.ocsps.entries()) {
    await writeFile(file(`ocsp-${i}.der`), ocsp)
    const parsed = await openssl('ocsp', '-respin', `ocsp-${i}.der`, '-resp_text', '-CAfile', 'ca.pem', '-verify_other', 'ca.pem')
    t.match(parsed.output, /Response Status: successful/, `openssl ocsp reads response ${i}`)
    t.equal(parsed.output.match(/Cert Status: good/g)?.length, 4, 'good: the application signer, both signers and the TSA')
    t.match(parsed.output, /Response verify OK/, `response ${i} verifies against the app CA: ${parsed.output.slice(0, 300)}`)
  }
  t.equal(dss.crls.length, 1, 'the CA\'s CRL, once')
  await writeFile(file('crl.der'), dss.crls[0]!)
  const crl = await openssl('crl', '-inform', 'DER', '-in', 'crl.der', '-noout', '-text', '-CAfile', 'ca.pem')
  t.match(crl.output, /Certificate Revocation List/, 'openssl crl reads the CRL')
  t.match(crl.output, /verify OK/, `and verifies it against the app CA: ${crl.output.slice(0, 300)}`)

  const report = (await app.inject({ method: 'POST', url: '/api/verify', headers: { 'content-type': 'application/pdf' }, payload: pdf })).json()
  t.equal(report.verdict, 'valid', report.summary)
  t.same(report.signatures.map((s: any) => [s.kind, s.level]), [['certification', 'B-LTA'], ['approval', 'B-LTA'], ['approval', 'B-LTA'], ['document-timestamp', null]])
  t.match(report.signatures.at(-1), { integrity: 'valid', subFilter: 'ETSI.RFC3161', trust: 'trusted' })

  t.test('archive renewal: a fresh DSS covering the last timestamp, then a new timestamp', async (t) => {
    const refused = await app.inject({ method: 'POST', url: `/api/signing-sessions/${session.id}/renew-timestamp`, headers: { cookie: staff! } })
    t.equal(refused.statusCode, 404, 'a signer who did not create the session may not renew it')
    t.equal(refused.json().code, 'ERR_LTV_DOCUMENT_NOT_FOUND')
    const unknown = await app.inject({ method: 'POST', url: '/api/signing-sessions/00000000-0000-4000-8000-000000000000/renew-timestamp', headers: { cookie: admin! } })
    t.equal(unknown.json().code, 'ERR_LTV_DOCUMENT_NOT_FOUND')
    const renewed = await app.inject({ method: 'POST', url: `/api/signing-sessions/${session.id}/renew-timestamp`, headers: { cookie: admin! } })
    t.equal(renewed.statusCode, 200, renewed.body)
    t.equal(renewed.json().data.outcome, 'sealed')
    const after = (await app.inject({ url: `/api/signing-sessions/${session.id}/document`, headers: { cookie: staff! } })).rawPayload
    t.ok(after.subarray(0, pdf.length).equals(pdf), 'the sealed file is a prefix of the renewed one')
    // The DSS already holds the TSA's certificate and its answers: only a timestamp is added, so
    // mupdf (which forbids any change to an existing DSS after a certification) still says 0.
    t.same((await dssStreams(after)).vriKeys, dss.vriKeys, 'the DSS is left as it was')
    const checked = await pdfsig(after)
    t.same(checked.signatures.map((s) => s.fieldName).slice(-2), ['Document timestamp', 'Document timestamp 2'])
    t.ok(checked.signatures.slice(0, 3).every((s) => s.valid), checked.output)
    const newest = newestSignatureValue(after)
    await writeFile(file('token2.der'), newest.der)
    await writeFile(file('covered2.bin'), newest.covered)
    t.match((await openssl('ts', '-verify', '-data', 'covered2.bin', '-in', 'token2.der', '-token_in', '-CAfile', 'ca.pem')).output, /Verification: OK/)
    t.equal((await mupdfChangeHistory(after)).verdict, 0)
    t.ok((await qpdfCheck(after)).clean)
    const events = (await app.inject({ url: `/api/signing-sessions/${session.id}`, headers: { cookie: admin! } })).json().data.events
    t.match(events.at(-1), { event: 'sealed', actor: DEMO.admin.id })
  })
})
