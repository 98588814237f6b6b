// npm start runs the sources compiled by bin/compile-for-start.ts (its prestart step), with plain
// node: no tsx, so any .ts left in an import would stop it. This compiles a copy, starts it as npm
// start does, and goes through what loads code late: pages (views read beside the compiled
// files), the PDF worker (a certificate, a signature) and the rasterizer worker (a page image),
// both started from compiled modules by worker-bootstrap.mjs.
import { execFile } from 'node:child_process'
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { pathToFileURL } from 'node:url'
import { promisify } from 'node:util'
import t from 'tap'
import { COMPILED_FOLDERS, compileForStart } from '../../bin/compile-for-start.ts'
import { START_ENTRY, startScriptNodeArgs } from '../../bin/start-script-node-args.ts'
import { PROJECT_ROOT } from '../../config/app.ts'
import { pdfsig } from '../fixtures/pdf/checkers.ts'
import { Client, startInstance } from '../helpers/instances.ts'
import { isolatedEnv } from '../helpers/test-env.ts'
import { STAMP_DATA_URL } from '../plugins/signature/signing/helpers.ts'

t.setTimeout(180_000)

const filesUnder = async (dir: string) => (await readdir(dir, { recursive: true, withFileTypes: true })).filter((e) => e.isFile()).map((e) => path.join(e.parentPath, e.name))

t.test('the compiled server signs in, renders, signs a document and draws a page image', async (t) => {
  // Inside the project, as dist/ is: node finds node_modules and package.json's "type" upward.
  const outDir = path.join(PROJECT_ROOT, 'artifacts', `compiled-${process.pid}`)
  const { env: isolated, cleanup } = await isolatedEnv()
  let stop = async () => {}
  t.teardown(async () => {
    await stop()
    await rm(outDir, { recursive: true, force: true })
    await cleanup()
  })

  const result = await compileForStart(outDir)
  const compiled = await filesUnder(outDir)
  const sources = (await Promise.all(COMPILED_FOLDERS.map((folder) => filesUnder(path.join(PROJECT_ROOT, folder))))).flat()
  t.equal(compiled.filter((f) => f.endsWith('.ts')).length, 0, 'no TypeScript in the compiled tree')
  t.equal(result.files, sources.filter((f) => f.endsWith('.ts') && !f.endsWith('.d.ts')).length, 'one .js per source .ts')
  t.equal(compiled.filter((f) => f.endsWith('.eta')).length, sources.filter((f) => f.endsWith('.eta')).length, 'every view beside its code')

  // Compiled config/app.js is one folder deeper than the source; the storage must not follow it.
  const { stdout } = await promisify(execFile)(process.execPath, ['--input-type=module', '-e', 'console.log((await import(process.argv[1])).PROJECT_ROOT)', pathToFileURL(path.join(outDir, 'config', 'app.js')).href])
  t.equal(stdout.trim(), PROJECT_ROOT, 'the compiled code finds the project root, where storage/ lives')

  const env = Object.fromEntries(Object.entries({ DATABASE_URL: '', DATABASE_SCHEMA: '', ...isolated }).map(([k, v]) => [k, String(v)]))
  const entry = path.join(outDir, path.relative('dist', START_ENTRY))
  const instance = await startInstance('compiled', env, [...await startScriptNodeArgs(), entry])
  stop = () => instance.stop()

  const admin = new Client(instance.url)
  await admin.login('admin@example.com')
  const people = await admin.request('GET', '/admin/users', undefined, { accept: 'text/html' })
  t.equal(people.status, 200)
  t.match(await people.text(), 'amelia.byrne@example.com', 'the People page lists the demo users')

  const staff = new Client(instance.url)
  await staff.login('staff@example.com')
  const created = await staff.request('POST', '/api/signatures', { label: 'Sam', image: STAMP_DATA_URL, certificate: { mode: 'issue' } })
  t.equal(created.status, 201, 'a certificate issued in the PDF worker')
  const signature = (await created.json()).data.uuid as string
  const opened = await admin.request('POST', '/api/signing-sessions', { template: 'payslip', signable: 'payslip-staff-2026-03', mode: 'parallel' })
  t.equal(opened.status, 201)
  const session = (await opened.json()).data
  const request = session.requests.find((r: { slot: string }) => r.slot === 'employee').id as string
  const signed = await staff.request('POST', '/app/signature-templates/payslip/signer/finalize', { signature, request, placements: [] }, { 'x-csrf-token': await staff.csrf() })
  t.equal(signed.status, 200, await signed.clone().text())
  const document = await admin.request('GET', `/api/signing-sessions/${session.id}/document`)
  t.equal(document.status, 200)
  const { signatures } = await pdfsig(Buffer.from(await document.arrayBuffer()))
  t.ok(signatures.some((s) => s.validation === 'Signature is Valid.'), `pdfsig: ${signatures.map((s) => s.validation).join(' | ')}`)

  const image = await admin.request('GET', '/admin/signature-templates/payslip/design/pages/1')
  t.equal(image.status, 200)
  t.same([...Buffer.from(await image.arrayBuffer()).subarray(0, 4)], [0x89, 0x50, 0x4e, 0x47], 'a PNG from the rasterizer worker')
})

t.test('a compile whose relative imports do not all resolve is refused, and the previous tree stays', async (t) => {
  const root = await mkdtemp(path.join(tmpdir(), 'compile-'))
  t.teardown(() => rm(root, { recursive: true, force: true }))
  await writeFile(path.join(root, 'tsconfig.json'), JSON.stringify({ compilerOptions: { target: 'ES2022', strict: true } }))
  await mkdir(path.join(root, 'core'))
  await writeFile(path.join(root, 'core', 'b.ts'), 'export const b: number = 1\n')
  await writeFile(path.join(root, 'core', 'w.ts'), 'export {}\n')
  await writeFile(path.join(root, 'core', 'a.ts'), "import { b } from './b.ts'\nexport const a = b\nexport const worker = new URL('./w.ts', import.meta.url)\n")
  await writeFile(path.join(root, 'core', 'view.eta'), '<p><%= it.a %></p>\n')
  const outDir = path.join(root, 'dist')

  await compileForStart(outDir, root)
  const a = await readFile(path.join(outDir, 'core', 'a.js'), 'utf8')
  t.match(a, 'from "./b.js"', 'an import names the compiled file')
  t.match(a, 'new URL("./w.js", import.meta.url)', 'so does a worker module\'s URL')
  t.notMatch(await readFile(path.join(outDir, 'core', 'b.js'), 'utf8'), ': number', 'types are gone')
  t.equal(await readFile(path.join(outDir, 'core', 'view.eta'), 'utf8'), '<p><%= it.a %></p>\n', 'a view is copied')

  await writeFile(path.join(root, 'core', 'a.ts'), "import { gone } from './missing.ts'\nexport const a = gone\n")
  await t.rejects(compileForStart(outDir, root), /core\/a\.js: \.\/missing\.js/, 'the error names the file and the import')
  t.match(await readFile(path.join(outDir, 'core', 'a.js'), 'utf8'), 'from "./b.js"', 'the previous tree is untouched')
  t.same((await readdir(root)).sort(), ['core', 'dist', 'tsconfig.json'], 'no half-written tree is left beside it')
})
