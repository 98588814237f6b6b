// Every file the engine writes has a trailer /ID (read back by qpdf): the first string the
// document's for good, the second new with each revision; the DocMDP reference names its digest
// method (/DigestMethod /SHA256).
import { execFile } from 'node:child_process'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import t from 'tap'
import { freezeDocument, signDocument, signField } from '../../../../plugins/signature/pdf/index.ts'
import { mupdfChangeHistory, pdfsig, qpdfCheck } from '../../../fixtures/pdf/checkers.ts'
import { makePdf } from '../../../fixtures/pdf/make-pdf.ts'
import { makeStampPng } from '../../../fixtures/pdf/stamp-image.ts'
import { testUserCertificate } from '../../../fixtures/pdf/test-certificates.ts'

const run = promisify(execFile)
const signer = testUserCertificate('Identifier')

/** The last trailer's /ID as qpdf reads it: two hex strings. */
async function trailerId(pdf: Uint8Array): Promise<[string, string]> {
  const dir = await mkdtemp(join(tmpdir(), 'trailer-id-'))
  try {
    await writeFile(join(dir, 'doc.pdf'), pdf)
    const { stdout } = await run('qpdf', ['--show-object=trailer', join(dir, 'doc.pdf')])
    const match = /\/ID \[ <([0-9a-f]+)> <([0-9a-f]+)> \]/.exec(stdout)
    if (!match) throw new Error(`no /ID in the trailer: ${stdout}`)
    return [match[1]!, match[2]!]
  } finally {
    await rm(dir, { recursive: true, force: true })
  }
}

t.test('a single signature: /ID in the trailer, /DigestMethod /SHA256 in its DocMDP reference', async (t) => {
  const signed = await signDocument(await makePdf(), { stamps: [], signer, certify: { p: 2 }, timestamps: null })
  const [first, second] = await trailerId(signed)
  t.equal(first.length, 32)
  t.not(first, second)
  t.match(Buffer.from(signed).toString('latin1'), /\/Reference \[\s*<<[^\]]*\/TransformMethod \/DocMDP[^\]]*\/DigestMethod \/SHA256/)
  t.equal((await pdfsig(signed)).signatures[0]?.validation, 'Signature is Valid.')
  t.ok((await qpdfCheck(signed)).clean)
})

t.test('a session: each revision keeps the first string and gets a second of its own', async (t) => {
  const frozen = await freezeDocument(await makePdf(), { signer, timestamps: null, fields: [{ name: 'a', page: 1, x: 40, y: 40, width: 100, height: 40 }] })
  const signed = await signField(frozen, { fieldName: 'a', image: makeStampPng(), signer: testUserCertificate('Signer A'), timestamps: null })
  const [frozenFirst, frozenSecond] = await trailerId(frozen)
  const [first, second] = await trailerId(signed)
  t.equal(first, frozenFirst, 'the document keeps its permanent identifier')
  t.not(second, frozenSecond, 'the revision has its own')
  t.same((await pdfsig(signed)).signatures.map((s) => s.validation), ['Signature is Valid.', 'Signature is Valid.'])
  t.equal((await mupdfChangeHistory(signed)).verdict, 0)
  t.ok((await qpdfCheck(signed)).clean)
})
