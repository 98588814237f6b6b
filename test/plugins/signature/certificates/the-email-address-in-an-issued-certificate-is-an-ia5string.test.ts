// RFC 5280 (appendix A.1): emailAddress in a Name is an IA5String. node-forge writes it as a
// PrintableString by default, which cannot hold '@' and which strict readers (Python's
// `cryptography`) refuse. Checked with `openssl asn1parse` on the issued certificate's DER, and
// read back by Python's `cryptography`.
import { execFile } from 'node:child_process'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { promisify } from 'node:util'
import t from 'tap'
import { createCertificateAuthority, issueUserCertificate, readP12 } from '../../../../plugins/signature/certificates/index.ts'

const run = promisify(execFile)

t.test("an issued certificate's subject emailAddress is an IA5String, as openssl asn1parse reads it", async (t) => {
  const ca = createCertificateAuthority({ commonName: 'Email Encoding CA' })
  const issued = issueUserCertificate(ca, { name: 'Grace Hopper', email: 'grace@example.org' })
  const dir = await mkdtemp(path.join(tmpdir(), 'ia5-'))
  t.teardown(() => rm(dir, { recursive: true, force: true }))
  await writeFile(path.join(dir, 'cert.der'), readP12(issued.p12, issued.password).certificates[0]!)
  const { stdout } = await run('openssl', ['asn1parse', '-inform', 'DER', '-in', path.join(dir, 'cert.der')])
  const lines = stdout.split('\n')
  const at = lines.findIndex((line) => /OBJECT\s+:emailAddress/.test(line))
  t.ok(at > 0, 'the subject has an emailAddress attribute')
  t.match(lines[at + 1], /prim: IA5STRING\s+:grace@example\.org$/, 'its value is an IA5String')
  t.notMatch(stdout, /PRINTABLESTRING\s+:[^\n]*@/, 'no PrintableString holds an @')
  const python = 'import sys; from cryptography import x509; print(x509.load_der_x509_certificate(open(sys.argv[1], "rb").read()).subject.rfc4514_string())'
  const read = await run('python3', ['-c', python, path.join(dir, 'cert.der')]).catch((error: { stderr?: string }) => ({ stdout: `refused: ${error.stderr ?? ''}` }))
  t.equal(read.stdout.trim(), '1.2.840.113549.1.9.1=grace@example.org,CN=Grace Hopper', "Python's cryptography reads the subject")
})
