// `npm run example` starts the example host on PORT with its files under STORAGE_PATH, and a
// SIGTERM closes it.
import { spawn } from 'node:child_process'
import { once } from 'node:events'
import { existsSync } from 'node:fs'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import t from 'tap'

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', '..')

t.test('npm run example listens where PORT says and keeps its database under STORAGE_PATH', async (t) => {
  const storagePath = await mkdtemp(path.join(tmpdir(), 'example-run-'))
  t.teardown(() => rm(storagePath, { recursive: true, force: true }))
  // PORT=0: the system picks a free port, which the server prints.
  const child = spawn('npm', ['run', '--silent', 'example'], { cwd: ROOT, env: { ...process.env, PORT: '0', STORAGE_PATH: storagePath }, detached: true, stdio: ['ignore', 'pipe', 'pipe'] })
  let output = ''
  child.stderr.on('data', (chunk) => { output += chunk })
  const exited = once(child, 'exit')
  t.teardown(() => { if (child.exitCode === null) process.kill(-child.pid!, 'SIGKILL') })
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout.on('data', (chunk) => {
      output += chunk
      // Both lines: they may come in two chunks (a race that showed in CI under load).
      const match = /Office at (http:\/\/localhost:\d+)\/office[^]*\nAccounts[^\n]*\n/.exec(output)
      if (match) resolve(match[1]!)
    })
    child.once('exit', (code) => reject(new Error(`the example exited (${code}) before listening:\n${output}`)))
  })
  t.match(output, `files in ${storagePath}`)
  t.match(output, 'accountant@example.com, clerk@example.com')
  const login = await fetch(`${url}/login`)
  t.equal(login.status, 200, 'the sign-in page')
  t.ok(existsSync(path.join(storagePath, 'app.sqlite')), 'the database is under STORAGE_PATH')
  t.ok(existsSync(path.join(storagePath, 'keys', 'session.key')), 'so is the session key: sessions survive a restart')
  // npm, its shell and the server are one process group: the signal reaches the server too.
  process.kill(-child.pid!, 'SIGTERM')
  await exited
  await t.rejects(fetch(`${url}/login`), 'SIGTERM closed it')
})
