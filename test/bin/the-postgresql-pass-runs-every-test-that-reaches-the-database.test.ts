// CI's PostgreSQL pass runs only the test files whose result can depend on the engine. A file
// left out there is run on SQLite alone, so the choice must never miss a way in: an import chain,
// a dynamic import, the variables that choose the engine, or a process of the project's own.
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import t from 'tap'
import { reachesTheDatabase, testFiles } from '../../bin/tests-that-reach-the-database.ts'

t.test('each way a test file reaches the database is found, and a file that does not is left out', async (t) => {
  const root = await mkdtemp(path.join(tmpdir(), 'reach-'))
  t.teardown(() => rm(root, { recursive: true, force: true }))
  const files: Record<string, string> = {
    'core/db/database.ts': 'export const open = () => null\n',
    'core/users/store.ts': "import { open } from '../db/database.ts'\nexport const store = open\n",
    'core/pdf/sign.ts': 'export const sign = (bytes: Uint8Array) => bytes\n',
    'core/config.ts': 'export const engine = process.env.USERS_STORE ?? "memory"\n',
    'test/helpers/app.ts': "export async function app() {\n  const { store } = await import('../../core/users/store.ts')\n  return store\n}\n",
    'test/through-a-chain.test.ts': "import {\n  app,\n} from './helpers/app.ts'\nawait app()\n",
    'test/through-the-variables.test.ts': "import { engine } from '../core/config.ts'\nconsole.log(engine)\n",
    'test/a-process-of-its-own.test.ts': "import { spawn } from 'node:child_process'\nspawn(process.execPath, ['--import', 'tsx', 'server.ts'])\n",
    'test/pdf-only.test.ts': "import { sign } from '../core/pdf/sign.ts'\nimport t from 'tap'\nt.ok(sign(new Uint8Array(1)))\n",
    'test/openssl-only.test.ts': "import { spawnSync } from 'node:child_process'\nspawnSync('openssl', ['version'])\n",
  }
  for (const [file, text] of Object.entries(files)) {
    await mkdir(path.dirname(path.join(root, file)), { recursive: true })
    await writeFile(path.join(root, file), text)
  }
  t.equal(reachesTheDatabase('test/through-a-chain.test.ts', root), true, 'a dynamic import two files down opens the database')
  t.equal(reachesTheDatabase('test/through-the-variables.test.ts', root), true, 'reading USERS_STORE chooses the engine')
  t.equal(reachesTheDatabase('test/a-process-of-its-own.test.ts', root), true, 'a child process of the project inherits DATABASE_URL')
  t.equal(reachesTheDatabase('test/pdf-only.test.ts', root), false, 'a file that never reaches them is left to the SQLite pass')
  t.equal(reachesTheDatabase('test/openssl-only.test.ts', root), false, 'starting openssl is not starting the project')
})

t.test("in this project: the users store's tests are chosen, the PDF writer's are not", async (t) => {
  const all = testFiles()
  const chosen = all.filter((file) => reachesTheDatabase(file))
  t.ok(all.length > 300, `tap's include finds the suite (${all.length} files)`)
  t.ok(chosen.includes('test/core/db/reads-asked-in-one-turn-share-one-statement.test.ts'))
  t.ok(chosen.includes('test/scale-out/two-instances.test.ts'))
  t.ok(chosen.includes('test/bin/npm-run-cluster-uses-places-of-its-own.test.ts'))
  t.notOk(chosen.includes('test/plugins/signature/pdf/sign-document-certifies-with-docmdp.test.ts'))
  t.ok(chosen.length < all.length, `${all.length - chosen.length} of ${all.length} files run on SQLite only`)
})
