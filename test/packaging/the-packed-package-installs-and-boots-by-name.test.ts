// The package a host installs: `npm pack` builds JavaScript and .d.ts (prepack), the tarball is
// unpacked into a scratch host's node_modules as npm install would, and the host imports both
// entries by name, type-checks against the declarations, boots, signs in and gets a page.
// SLOW (over 60 s): the prepack build (esbuild per file, then tsc for the declarations) took 88 s
// alone, and the whole test 207 s, on this machine at a load average of ~27 (2 cores).
import { execFile } from 'node:child_process'
import { mkdir, mkdtemp, readdir, rm, symlink, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { promisify } from 'node:util'
import t from 'tap'
import { PROJECT_ROOT } from '../../config/app.ts'

const run = promisify(execFile)
// The build is most of it: generous for a loaded machine (2 cores shared by many).
t.setTimeout(600_000)

const HOST = `
import { createApp, defineResource, Panel, type FixedAccount } from 'fastify-panels-signature'
import { SignaturePlugin } from 'fastify-panels-signature/signature'

interface Thing { id: string; name: string }
const things: Thing[] = [{ id: 't1', name: 'Kettle' }]
const accounts: FixedAccount[] = [{ name: 'Rita Reader', email: 'reader@example.com', role: 'reader', password: 'password' }]
const resource = defineResource<Thing>({
  slug: 'things', label: 'Things', recordLabel: 'thing', title: (thing) => thing.name,
  columns: [{ key: 'name', label: 'Name', sortable: true, primary: true }],
  defaultSort: 'name', searchFields: ['name'], perPage: 10,
  actions: { view: { permission: 'things:read' } },
  source: { list: async () => ({ data: things, total: things.length }), get: async () => things[0]! },
})
const app = await createApp({
  access: { roles: { reader: ['things:read'] }, adminRoles: ['reader'] },
  users: accounts,
  panels: [Panel.make().id('office').path('office').access('signed-in').resources([resource])],
})
const login = await app.inject({ method: 'POST', url: '/api/auth/login', payload: { email: 'reader@example.com', password: 'password' } })
const cookie = String(login.headers['set-cookie']).split(';')[0]!
const page = await app.inject({ url: '/office/things', headers: { cookie, accept: 'text/html' } })
const css = await app.inject({ url: '/assets/css/app.css' })
console.log(JSON.stringify({ login: login.statusCode, page: page.statusCode, listsThing: page.body.includes('Kettle'), css: css.statusCode, plugin: typeof SignaturePlugin.make }))
await app.close()
`

t.test('npm pack, unpacked into a host, imports by name, type-checks and boots', async (t) => {
  const dir = await mkdtemp(path.join(tmpdir(), 'packed-host-'))
  t.teardown(() => rm(dir, { recursive: true, force: true }))
  const packed = await run('npm', ['pack', '--json', '--pack-destination', dir], { cwd: PROJECT_ROOT, maxBuffer: 64 * 1024 * 1024 })
  // The prepack step's banner may come first on stdout: the report is the JSON array after it.
  const { filename, files } = (JSON.parse(packed.stdout.slice(packed.stdout.search(/^\[/m))) as Array<{ filename: string; files: Array<{ path: string }> }>)[0]!
  const shipped = files.map((file) => file.path)
  t.ok(shipped.includes('build/core/index.js') && shipped.includes('build/core/index.d.ts'), 'the framework entry, built and declared')
  t.ok(shipped.includes('build/plugins/signature/index.js') && shipped.includes('build/plugins/signature/index.d.ts'), 'the plugin entry, built and declared')
  t.ok(shipped.includes('build/core/resource/views/list.eta') && shipped.includes('build/public/css/app.css'), 'views and assets beside them')
  t.notOk(shipped.some((file) => /^(host-app|panels|config|test|examples|bench)\//.test(file) || /^build\/.*\.ts$/.test(file.replace(/\.d\.ts$/, ''))), 'no sources, no demo host, no tests')

  // Unpacked as npm install would; its dependencies are the project's (linked, never written to).
  const modules = path.join(dir, 'node_modules')
  await mkdir(path.join(modules, 'fastify-panels-signature'), { recursive: true })
  await run('tar', ['-xzf', path.join(dir, filename), '-C', path.join(modules, 'fastify-panels-signature'), '--strip-components=1'])
  for (const entry of await readdir(path.join(PROJECT_ROOT, 'node_modules'))) {
    if (entry !== 'fastify-panels-signature') await symlink(path.join(PROJECT_ROOT, 'node_modules', entry), path.join(modules, entry))
  }
  await writeFile(path.join(dir, 'package.json'), JSON.stringify({ type: 'module', private: true }))
  await writeFile(path.join(dir, 'host.ts'), HOST)
  await writeFile(path.join(dir, 'tsconfig.json'), JSON.stringify({
    compilerOptions: { target: 'ES2022', module: 'NodeNext', moduleResolution: 'NodeNext', strict: true, noEmit: true, allowImportingTsExtensions: true, skipLibCheck: true, types: ['node'] },
    files: ['host.ts'],
  }))
  const tsc = await run(process.execPath, [path.join(PROJECT_ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', dir]).catch((error) => error)
  t.equal(tsc.code ?? 0, 0, `the host type-checks against the package's declarations ${tsc.stdout ?? ''}`)

  // tsx compiles the host's own file only: what it imports from node_modules is the built JavaScript.
  const booted = await run(process.execPath, ['--import', 'tsx', 'host.ts'], { cwd: dir })
  t.same(JSON.parse(booted.stdout.trim().split('\n').at(-1)!), { login: 200, page: 200, listsThing: true, css: 200, plugin: 'function' })
})
