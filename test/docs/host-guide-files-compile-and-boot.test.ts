// docs/host-guide.md is a tutorial whose code blocks are whole files (`<!-- file: NAME -->` above
// each): written into an empty folder as a new host would, they compile with tsc and boot; the
// accountant signs in and gets the Invoices page, the clerk is refused a write.
import { execFile } from 'node:child_process'
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { promisify } from 'node:util'
import t from 'tap'
import { PROJECT_ROOT } from '../../config/app.ts'
import { compileAsAHost } from '../helpers/compile-as-a-host.ts'
import { markdownFiles } from '../helpers/markdown-files.ts'

const run = promisify(execFile)
// What the test runs inside the new host: boot it, sign in, open the page, try a refused write.
const BOOT = `
import { buildApp } from './app.ts'
const app = await buildApp()
const login = async (email: string) => {
  const response = await app.inject({ method: 'POST', url: '/api/auth/login', payload: { email, password: 'password' } })
  return String(response.headers['set-cookie']).split(';')[0]!
}
const accountant = await login('accountant@example.com')
const page = await app.inject({ url: '/office/invoices', headers: { cookie: accountant, accept: 'text/html' } })
const clerk = await login('clerk@example.com')
const home = await app.inject({ url: '/office', headers: { cookie: clerk, accept: 'text/html' } })
const token = /name="csrf-token" content="([^"]+)"/.exec(home.body)?.[1] ?? ''
const write = await app.inject({ method: 'DELETE', url: '/office/invoices/1', headers: { cookie: clerk, accept: 'application/json', 'x-csrf-token': token } })
const after = await app.inject({ url: '/office/invoices/1', headers: { cookie: accountant, accept: 'text/html' } })
console.log(JSON.stringify({ page: page.statusCode, listsInvoice: page.body.includes('2026-001'), write: write.statusCode, code: write.json().code, kept: after.statusCode }))
await app.close()
`

t.test('the host guide\'s files compile with tsc and boot', async (t) => {
  const files = markdownFiles(await readFile(path.join(PROJECT_ROOT, 'docs', 'host-guide.md'), 'utf8'))
  t.same([...files.keys()].sort(), ['access.ts', 'app.ts', 'invoices.ts', 'server.ts'], 'four whole files')
  const dir = await mkdtemp(path.join(tmpdir(), 'host-guide-'))
  t.teardown(() => rm(dir, { recursive: true, force: true }))
  for (const [name, text] of files) await writeFile(path.join(dir, name), text)
  const tsc = await compileAsAHost(dir, [...files.keys()])
  t.equal(tsc.code, 0, `tsc: ${tsc.output}`)

  await writeFile(path.join(dir, 'boot.ts'), BOOT)
  const booted = await run(process.execPath, ['--import', 'tsx', 'boot.ts'], { cwd: dir, env: { ...process.env, STORAGE_PATH: path.join(dir, 'storage'), TSX_TSCONFIG_PATH: path.join(dir, 'tsconfig.json') } })
  const result = JSON.parse(booted.stdout.trim().split('\n').at(-1)!)
  t.same(result, { page: 200, listsInvoice: true, write: 403, code: 'ERR_ACCESS_DENIED', kept: 200 })
})
