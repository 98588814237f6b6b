// An issuer's signature on a certificate is checked once and remembered (certificate-chain.ts).
// After a genuine signer certificate was accepted, a forged one naming the same issuer (the same
// names and key identifier, its signature bytes altered) must still fail the issuer's signature:
// the answer belongs to the pair of certificates, not to the issuer alone. Nor to the certificate
// alone: a second CA with the same name and key identifier but another key (the root issued both)
// is not the genuine signer's issuer.
import { X509Certificate } from 'node:crypto'
import t from 'tap'
import { buildChain } from '../../../../plugins/signature/verify/certificate-chain.ts'
import { CA_EXTENSIONS, opensslChain, SIGNER_EXTENSIONS } from '../../../fixtures/pdf/openssl-chain.ts'

const pki = await opensslChain(t, 'Remembered Issuer Root')
const ca = await pki.issue('Remembering CA', pki.root, { extensions: CA_EXTENSIONS })
const signer = await pki.issue('Genuine Signer', ca, { extensions: SIGNER_EXTENSIONS })
const [root, intermediate, genuine] = [pki.root, ca, signer].map((c) => new X509Certificate(c.certPem))

/** The genuine certificate with the last byte of its signature value changed: same names, same issuer. */
function forged(certificate: X509Certificate): X509Certificate {
  const der = Buffer.from(certificate.raw)
  der[der.length - 1] = der[der.length - 1]! ^ 0x01
  return new X509Certificate(der)
}

t.test('a forged certificate after a genuine one from the same CA is not trusted', async (t) => {
  t.equal((await buildChain(genuine!, [intermediate!], [root!])).trusted, true, 'the genuine one is')
  const fake = forged(genuine!)
  t.equal(fake.issuer, genuine!.issuer)
  t.equal(fake.subject, genuine!.subject)
  const result = await buildChain(fake, [intermediate!], [root!])
  t.equal(result.trusted, false)
  t.same(result.chain, [fake], 'no issuer vouches for it')
})

t.test('a forged CA certificate after the genuine CA was used is not an issuer either', async (t) => {
  t.equal((await buildChain(genuine!, [intermediate!], [root!])).trusted, true)
  t.equal((await buildChain(genuine!, [forged(intermediate!)], [root!])).trusted, false)
})

t.test('the genuine signer below a twin CA (same name and key identifier, another key) is not trusted', async (t) => {
  const twinExtensions = ['basicConstraints=critical,CA:true', 'keyUsage=critical,keyCertSign,cRLSign', 'subjectKeyIdentifier=0a0b0c0d0e', 'authorityKeyIdentifier=keyid']
  const first = await pki.issue('Twin CA', pki.root, { extensions: twinExtensions })
  const signed = await pki.issue('Signer Of The First Twin', first, { extensions: SIGNER_EXTENSIONS })
  const second = await pki.issue('Twin CA', pki.root, { extensions: twinExtensions })
  const [one, two, leaf] = [first, second, signed].map((c) => new X509Certificate(c.certPem))
  t.equal(two!.subject, one!.subject)
  t.not(two!.fingerprint256, one!.fingerprint256)
  t.equal((await buildChain(leaf!, [one!], [root!])).trusted, true, 'below the CA that signed it')
  t.equal((await buildChain(leaf!, [two!], [root!])).trusted, false, 'not below its twin')
})
