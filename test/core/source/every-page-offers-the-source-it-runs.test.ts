// AGPL-3.0 §13: whoever uses the program over the network is offered its source. Every page has a
// "Source" link; by default it is /source.tar.gz, an archive of the running project's files that
// GNU tar reads, holding the code as it is on disk and never storage/, keys or dotfiles.
import { execFileSync } from 'node:child_process'
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import Fastify from 'fastify'
import t from 'tap'
import { createApp } from '../../../core/index.ts'
import { registerSourceArchive } from '../../../core/source/source-route.ts'
import { tarArchive } from '../../../core/source/tar-archive.ts'
import { getPage } from '../../helpers/pages.ts'

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', '..')
const access = { roles: { clerk: ['invoices:read'] }, adminRoles: ['clerk'] }
const users = [{ name: 'Carla Clerk', email: 'clerk@example.com', role: 'clerk', password: 'password' }]

async function saved(t: { teardown(fn: () => unknown): void }, body: Buffer): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), 'source-'))
  t.teardown(() => rm(dir, { recursive: true, force: true }))
  const file = path.join(dir, 'source.tar.gz')
  await writeFile(file, body)
  return file
}

t.test('the sign-in page links the source, and the archive is the code on disk', async (t) => {
  const app = await createApp({ access, users })
  t.teardown(() => app.close())
  const login = await getPage(app, '/login')
  t.match(login.body, /<footer class="site-footer"><a href="\/source\.tar\.gz" data-source-link>Source<\/a>/, 'a Source link in the footer')
  const archive = await app.inject('/source.tar.gz')
  t.equal(archive.statusCode, 200)
  t.equal(archive.headers['content-type'], 'application/gzip')
  const file = await saved(t, archive.rawPayload)
  const names = execFileSync('tar', ['-tzf', file], { encoding: 'utf8' }).trim().split('\n')
  for (const wanted of ['source/LICENSE', 'source/package.json', 'source/package-lock.json', 'source/core/index.ts', 'source/plugins/signature/index.ts', 'source/host-app/server.ts']) {
    t.ok(names.includes(wanted), `holds ${wanted}`)
  }
  t.notOk(names.some((n) => /(^|\/)(node_modules|storage|dist|\.git)(\/|$)/.test(n)), 'no installed packages, storage, build output or git')
  t.notOk(names.some((n) => n.startsWith('source/test/')), 'the tests are not the program')
  const extracted = execFileSync('tar', ['-xzOf', file, 'source/core/index.ts'])
  t.same(extracted, await readFile(path.join(ROOT, 'core/index.ts')), 'a file comes out byte for byte')
})

t.test('secrets beside the source never go into the archive', async (t) => {
  const root = await mkdtemp(path.join(tmpdir(), 'source-root-'))
  t.teardown(() => rm(root, { recursive: true, force: true }))
  await mkdir(path.join(root, 'core'), { recursive: true })
  await mkdir(path.join(root, 'storage', 'keys'), { recursive: true })
  await mkdir(path.join(root, 'config'), { recursive: true })
  await writeFile(path.join(root, 'core', 'index.ts'), 'export {}\n')
  await writeFile(path.join(root, 'storage', 'keys', 'session.key'), 'secret')
  await writeFile(path.join(root, '.env'), 'SESSION_KEY=secret')
  await writeFile(path.join(root, 'config', '.env.production'), 'secret')
  await writeFile(path.join(root, 'config', 'ca.key'), 'secret')
  await writeFile(path.join(root, 'config', 'signer.p12'), 'secret')
  await writeFile(path.join(root, 'config', 'app.ts'), 'export const app = {}\n')
  const app = Fastify()
  registerSourceArchive(app, root)
  t.teardown(() => app.close())
  const file = await saved(t, (await app.inject('/source.tar.gz')).rawPayload)
  const names = execFileSync('tar', ['-tzf', file], { encoding: 'utf8' }).trim().split('\n').sort()
  t.same(names, ['source/config/app.ts', 'source/core/index.ts'], 'only the allow-listed source, no key, .env or storage')
})

t.test('a path longer than 100 bytes goes into the ustar prefix and comes back whole', async (t) => {
  const name = `source/${'a'.repeat(60)}/${'b'.repeat(60)}/file.ts`
  const file = await saved(t, (await import('node:zlib')).gzipSync(tarArchive([{ name, data: Buffer.from('x\n'), mtime: new Date(0) }])))
  t.same(execFileSync('tar', ['-tzf', file], { encoding: 'utf8' }).trim(), name)
})

t.test('a host that keeps its source elsewhere points the link there, and no archive is served', async (t) => {
  const app = await createApp({ access, users, views: { sourceUrl: 'https://git.example.com/our-fork' } })
  t.teardown(() => app.close())
  t.match((await getPage(app, '/login')).body, /<a href="https:\/\/git\.example\.com\/our-fork" data-source-link>Source<\/a>/)
  t.equal((await app.inject('/source.tar.gz')).statusCode, 404)
})
