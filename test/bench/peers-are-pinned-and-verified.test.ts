// The peer rows of npm run bench: the peers are pinned in a package of their own (never the
// app's dependencies), and a signer whose output fails pdfsig is reported as such, never timed.
// Neither needs bench/peers installed: nothing here starts AdminJS or loads a peer.
import { readFile } from 'node:fs/promises'
import t from 'tap'
import { signerRows, timeVerifiedSigners, type Signer } from '../../bench/sections/peer-signers.ts'
import { createCertificateAuthority, issueUserCertificate, readP12 } from '../../plugins/signature/certificates/index.ts'
import { signDocument } from '../../plugins/signature/pdf/index.ts'
import { makePdf } from '../fixtures/pdf/make-pdf.ts'
import { makeStampPng } from '../fixtures/pdf/stamp-image.ts'

const readJson = async (path: string) => JSON.parse(await readFile(new URL(path, import.meta.url), 'utf8'))

t.test('the peers have exact versions, a lockfile in step, and stay out of the app', async (t) => {
  const peers = await readJson('../../bench/peers/package.json')
  const lock = await readJson('../../bench/peers/package-lock.json')
  const app = await readJson('../../package.json')
  const wanted = ['adminjs', '@adminjs/fastify', '@adminjs/sql', '@documenso/pdf-sign', '@libpdf/core', '@signpdf/signpdf']
  for (const name of wanted) t.ok(peers.dependencies[name], `${name} is a peer`)
  for (const [name, version] of Object.entries(peers.dependencies as Record<string, string>)) {
    t.match(version, /^\d+\.\d+\.\d+$/, `${name} is pinned (${version})`)
    t.equal(lock.packages[`node_modules/${name}`]?.version, version, `the lockfile installs ${name} ${version}`)
  }
  t.same(lock.packages[''].dependencies, peers.dependencies, 'the lockfile was made from this package.json')
  const appDependencies = { ...app.dependencies, ...app.devDependencies }
  for (const name of ['adminjs', '@adminjs/fastify', '@adminjs/sql', '@documenso/pdf-sign', '@signpdf/signpdf']) {
    t.notOk(appDependencies[name], `${name} is not a dependency of the app`)
  }
})

t.test('a signer whose output fails pdfsig is reported as such and never timed', async (t) => {
  const ca = createCertificateAuthority({ commonName: 'Peers Test CA' })
  const issued = issueUserCertificate(ca, { name: 'Peer Signer', email: 'peer@example.org' })
  const identity = readP12(issued.p12, issued.password)
  const pdf = await makePdf({ pages: 1 })
  const calls = { ours: 0, tampered: 0, throws: 0 }
  const image = makeStampPng()
  const sign = (input: Uint8Array) => signDocument(input, { stamps: [{ page: 1, x: 400, y: 60, width: 200, height: 80, image }], signer: identity })
  const signers: Signer[] = [
    { name: 'ours', sign: async (input) => { calls.ours++; return sign(input) } },
    {
      // A signature over bytes that then change: the PDF still opens, the digest no longer matches.
      name: 'tampered',
      sign: async (input) => {
        calls.tampered++
        const signed = Buffer.from(await sign(input))
        const at = signed.indexOf('/Producer')
        t.ok(at > 0 && at < signed.indexOf('/ByteRange'), 'the changed byte lies in the signed range')
        signed[at + 2] = signed[at + 2] === 0x72 ? 0x52 : 0x72
        return signed
      },
    },
    { name: 'throws', sign: async () => { calls.throws++; throw new Error('no key') } },
  ]
  const [ours, tampered, throws] = await timeVerifiedSigners(signers, pdf, 2, 2)
  t.same(ours!.verdict, { valid: true })
  t.equal(ours!.times.length, 4, 'the valid signer is timed: 2 rounds of 2 calls')
  t.equal(calls.ours, 1 + 2 * 3, 'one checked call, then per round a warm-up and 2 timed calls')
  t.equal(tampered!.verdict.valid, false)
  t.match((tampered!.verdict as { verdicts: string[] }).verdicts, [/Digest Mismatch/])
  t.same(tampered!.times, [], 'the tampered signer has no time')
  t.equal(calls.tampered, 1, 'and is called once, for the check only')
  t.match((throws!.verdict as { verdicts: string[] }).verdicts, [/threw: no key/])
  t.equal(calls.throws, 1)

  const rows = signerRows('P9', 1, ours!, [tampered!, throws!], 2)
  t.match(rows[0], { id: 'P9a', baseline: /^output fails pdfsig: .*Digest Mismatch/, ratio: '-', met: null })
  t.match(rows[1], { id: 'P9b', baseline: /^output fails pdfsig: threw: no key/, ratio: '-', met: null })
  t.ok(rows.every((row) => row.bar === ''), 'no bar is judged against a peer whose output fails')
})
