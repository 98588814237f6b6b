// RFC 3161 §2.3: a timestamp authority's certificate carries the extended key usage timeStamping,
// alone and critical. The same TSTInfo signed by a certificate without it proves no time: the
// signature's timestamp is not valid (and so neither is the signature), as `openssl ts -verify`
// says ("unsuitable certificate purpose"); signed by a proper TSA certificate it counts.
import { execFile } from 'node:child_process'
import { readFile, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { promisify } from 'node:util'
import { P12Signer, PDF } from '@libpdf/core'
import t from 'tap'
import { verifyPdf } from '../../../../plugins/signature/verify/verify-pdf.ts'
import { makePdf } from '../../../fixtures/pdf/make-pdf.ts'
import { opensslChain, SIGNER_EXTENSIONS, type ChainCertificate } from '../../../fixtures/pdf/openssl-chain.ts'

const run = promisify(execFile)
const pki = await opensslChain(t, 'Timestamp Purpose Root CA')
const file = (name: string) => path.join(pki.dir, name)
const openssl = (...args: string[]) => run('openssl', args, { cwd: pki.dir })
const signer = await pki.issue('Tess Timestamped', pki.root, { extensions: SIGNER_EXTENSIONS })
const properTsa = await pki.issue('Proper TSA', pki.root, { extensions: ['basicConstraints=CA:false', 'keyUsage=critical,digitalSignature', 'extendedKeyUsage=critical,timeStamping'] })
const plainCertificate = await pki.issue('Not A TSA', pki.root, { extensions: ['basicConstraints=CA:false', 'keyUsage=critical,digitalSignature'] })
await writeFile(file('tsa.cnf'), `[ tsa ]\ndefault_tsa = tsa_config\n[ tsa_config ]\nserial = ${file('tsaserial')}\nsigner_digest = sha256\ndefault_policy = 1.2.3.4.1\ndigests = sha256\ness_cert_id_alg = sha256\n`)
await writeFile(file('tsaserial'), '01\n')

/**
 * A TimeStampToken over `digest`: openssl ts -reply makes it with the proper TSA (it refuses any
 * other certificate); for `signedBy` another certificate, its TSTInfo is signed again by that one
 * with openssl cms, as a forger would.
 */
async function token(digest: Uint8Array, signedBy: ChainCertificate): Promise<Buffer> {
  const hex = Buffer.from(digest).toString('hex')
  await openssl('ts', '-query', '-digest', hex, '-sha256', '-cert', '-no_nonce', '-out', file('q.tsq'))
  await openssl('ts', '-reply', '-config', file('tsa.cnf'), '-queryfile', file('q.tsq'), '-signer', properTsa.certPath, '-inkey', properTsa.keyPath, '-token_out', '-out', file('proper.tok'))
  if (signedBy === properTsa) return readFile(file('proper.tok'))
  await openssl('cms', '-verify', '-noverify', '-inform', 'DER', '-in', file('proper.tok'), '-out', file('tstinfo.der'))
  await openssl('cms', '-sign', '-binary', '-nodetach', '-econtent_type', 'id-smime-ct-TSTInfo', '-in', file('tstinfo.der'), '-signer', signedBy.certPath, '-inkey', signedBy.keyPath, '-outform', 'DER', '-md', 'sha256', '-nosmimecap', '-out', file('forged.tok'))
  return readFile(file('forged.tok'))
}

async function signTimestampedBy(tsa: ChainCertificate) {
  let issued: Buffer | undefined
  const doc = await PDF.load(await makePdf())
  const { bytes } = await doc.sign({
    signer: await P12Signer.create(await pki.p12(signer, []), 'pw'),
    level: 'B-T',
    timestampAuthority: { timestamp: async (digest) => new Uint8Array(issued = await token(digest, tsa)) },
  })
  const report = await verifyPdf(bytes, { trustAnchors: [pki.root.certPem] })
  await writeFile(file('check.tok'), issued!)
  const opensslCheck = await openssl('ts', '-verify', '-in', file('check.tok'), '-token_in', '-queryfile', file('q.tsq'), '-CAfile', pki.root.certPath, '-untrusted', tsa.certPath)
    .then((r) => ({ ok: true, output: r.stdout + r.stderr }), (error: { stdout?: string; stderr?: string }) => ({ ok: false, output: `${error.stdout ?? ''}${error.stderr ?? ''}` }))
  return { signature: report.signatures[0]!, opensslCheck }
}

t.test('a token from a certificate with the critical timeStamping purpose counts, and openssl ts -verify agrees', async (t) => {
  const { signature, opensslCheck } = await signTimestampedBy(properTsa)
  t.match(signature, { integrity: 'valid', level: 'B-T', timestamp: { valid: true, tsa: 'CN=Proper TSA' } })
  t.notMatch(signature.problems.join(' '), /timestamp/)
  t.ok(opensslCheck.ok, opensslCheck.output)
})

t.test('the same TSTInfo signed by a certificate without it proves nothing, and openssl ts -verify refuses it', async (t) => {
  const { signature, opensslCheck } = await signTimestampedBy(plainCertificate)
  t.match(signature, { integrity: 'valid', timestamp: { valid: false, tsa: 'CN=Not A TSA' }, verdict: 'invalid', level: 'B-B' })
  t.match(signature.problems, [/certificate is not one for timestamps \(it needs the critical extended key usage timeStamping, alone\)/])
  t.notOk(opensslCheck.ok, 'openssl ts -verify refuses it')
  t.match(opensslCheck.output, /unsuitable certificate purpose/)
})
