// The peer rows of npm run bench: the peers are pinned in a package of their own (never the
// app's dependencies), and a signer whose output fails pdfsig is reported as such, never timed.
// Neither needs bench/peers installed: nothing here starts AdminJS or loads a peer.
import { readFile } from 'node:fs/promises'
import t from 'tap'
import { signerRows, timeVerifiedSigners, type Signer } from '../../bench/sections/peer-signers.ts'
import { createCertificateAuthority, issueUserCertificate } from '../../plugins/signature/certificates/index.ts'
import { makePdf } from '../fixtures/pdf/make-pdf.ts'

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

t.test('a signer whose output fails pdfsig is reported as such and never timed; each signer runs in a process of its own', async (t) => {
  const ca = createCertificateAuthority({ commonName: 'Peers Test CA' })
  const issued = issueUserCertificate(ca, { name: 'Peer Signer', email: 'peer@example.org' })
  const pdf = await makePdf({ pages: 1 })
  const signers: Signer[] = [
    { name: 'ours', kind: 'ours' },
    // A signature over bytes that then change: the PDF still opens, the digest no longer matches.
    { name: 'tampered', kind: 'tampered' },
    { name: 'throws', kind: 'throws' },
  ]
  const [ours, tampered, throws] = await timeVerifiedSigners(signers, pdf, 2, 2, issued.p12, issued.password)
  t.same(ours!.verdict, { valid: true })
  t.equal(ours!.times.length, 4, 'the valid signer is timed: 2 rounds of 2 calls')
  t.equal(ours!.cpu.length, 4, 'with the CPU of its own process for each call')
  t.ok(ours!.cpu.every((ms) => ms > 0), 'each call cost some CPU in the signer\'s process')
  t.equal(tampered!.verdict.valid, false)
  t.match((tampered!.verdict as { verdicts: string[] }).verdicts, [/Digest Mismatch/])
  t.same(tampered!.times, [], 'the tampered signer has no time')
  t.match((throws!.verdict as { verdicts: string[] }).verdicts, [/threw: no key/])
  t.same(throws!.times, [])

  const rows = signerRows('P9', 1, ours!, [tampered!, throws!], 2)
  t.match(rows[0], { id: 'P9a', baseline: /^output fails pdfsig: .*Digest Mismatch/, ratio: '-', met: null })
  t.match(rows[1], { id: 'P9b', baseline: /^output fails pdfsig: threw: no key/, ratio: '-', met: null })
  t.ok(rows.every((row) => row.bar === ''), 'no bar is judged against a peer whose output fails')
})
