// Issue 19's row: verifying a 100-page document with 10 signatures (the certification and 9
// session signers, each an incremental update) — integrity, chain, and the revision-by-revision
// modification analysis — against pdfsig checking the same file's integrity (poppler, C++, one
// process per run: what a shell script would call). Measured in-process (the server runs the
// same function in a PDF worker). Like with like: each pdfsig run includes starting a process,
// which ours does not pay, so the same rounds time spawning /bin/true and the ratio is taken
// against pdfsig's time less that start (its raw time is shown beside it).
import { execFileSync } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { performance } from 'node:perf_hooks'
import { createCertificateAuthority, issueUserCertificate, readP12 } from '../../plugins/signature/certificates/index.ts'
import { freezeDocument, signField } from '../../plugins/signature/pdf/index.ts'
import { verifyPdf } from '../../plugins/signature/verify/verify-pdf.ts'
import { buildCrl } from '../../plugins/signature/pki/build-crl.ts'
import { certificateFields, pemToDer } from '../../plugins/signature/pki/certificate-fields.ts'
import { makePdf } from '../../test/fixtures/pdf/make-pdf.ts'
import { makeStampPng } from '../../test/fixtures/pdf/stamp-image.ts'
import { median, ms, pick, x, type Row } from '../lib/rows.ts'

export async function run(): Promise<Row[]> {
  const ca = createCertificateAuthority({ commonName: 'Bench CA' })
  const identity = (name: string) => { const issued = issueUserCertificate(ca, { name, email: 'bench@example.org' }); return readP12(issued.p12, issued.password) }
  const image = makeStampPng()
  const slots = Array.from({ length: 9 }, (_, i) => ({ name: `slot-${i + 1}`, page: 100, x: 20 + (i % 5) * 150, y: 40 + Math.floor(i / 5) * 100, width: 140, height: 80 }))
  let pdf = await freezeDocument(await makePdf({ pages: 100, objectStreams: true }), { fields: slots, signer: identity('Application') })
  for (const slot of slots) pdf = await signField(pdf, { fieldName: slot.name, image, signer: identity(slot.name) })
  const anchors = [ca.certificatePem]
  // The CA's current CRL, as the server hands its own CA's to the verifier (revocation unknown is a warning).
  const issuerCrls = [buildCrl([], { privateKey: ca.privateKey, certificate: certificateFields(pemToDer(ca.certificatePem)) }, new Date())]
  const options = { trustAnchors: anchors, issuerCrls }

  const check = await verifyPdf(pdf, options)
  if (check.verdict !== 'valid' || check.signatures.length !== 10) throw new Error(`verify: ${check.summary}`)
  const dir = mkdtempSync(join(tmpdir(), 'bench-verify-'))
  writeFileSync(join(dir, 'doc.pdf'), pdf)
  const ours: number[] = []
  const pdfsig: number[] = []
  const spawn: number[] = []
  try {
    for (let round = 0; round < pick(15, 3) + 2; round++) {
      let t0 = performance.now()
      await verifyPdf(pdf, options)
      const a = performance.now() - t0
      t0 = performance.now()
      execFileSync('pdfsig', [join(dir, 'doc.pdf')], { encoding: 'utf8' })
      const b = performance.now() - t0
      t0 = performance.now()
      execFileSync('true')
      const c = performance.now() - t0
      // The first two rounds warm up the JIT and the disk cache.
      if (round >= 2) { ours.push(a); pdfsig.push(b); spawn.push(c) }
    }
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
  const mine = median(ours)
  const theirs = median(pdfsig)
  const start = median(spawn)
  const theirWork = Math.max(theirs - start, 0.01)
  return [{
    id: '19', what: 'Verify a 100-page PDF with 10 signatures (integrity + chain + modification analysis) / pdfsig integrity only, less its process start (median)',
    ours: ms(mine), baseline: `pdfsig ${ms(theirWork)} (${ms(theirs)} as a process; starting /bin/true ${ms(start)})`, ratio: x(mine / theirWork), bar: '', met: null,
    data: { ours, pdfsig, spawn, bytes: pdf.length, revisions: check.document.revisions },
  }]
}
