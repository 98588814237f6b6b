// Issue 36 item 12: `npm run cluster` ran its instances in the `test` database's default schema
// and Redis database 0, beside whatever else lives there. It now uses the schema `cluster_demo`
// (created when missing) and Redis database 7, and says so when it starts.
import { spawn } from 'node:child_process'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import pg from 'pg'
import t from 'tap'
import { PROJECT_ROOT } from '../../config/app.ts'
import { postgresUnreachable, TEST_DATABASE_URL } from '../core/db/engines.ts'

t.setTimeout(300_000)

t.test('two instances in the schema cluster_demo and Redis database 7, printed at start', { skip: (await postgresUnreachable()) ?? false }, async (t) => {
  const storage = await mkdtemp(path.join(tmpdir(), 'cluster-'))
  const env: NodeJS.ProcessEnv = { ...process.env, STORAGE_PATH: storage, CLUSTER_PORTS: '0,0', DATABASE_URL: TEST_DATABASE_URL }
  delete env.DATABASE_SCHEMA
  delete env.REDIS_URL
  const child = spawn(process.execPath, ['--import', 'tsx', 'bin/cluster.ts'], { cwd: PROJECT_ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] })
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)))
  t.teardown(async () => {
    if (child.exitCode === null) child.kill('SIGTERM')
    await exited
    await rm(storage, { recursive: true, force: true })
  })
  let output = ''
  await new Promise<void>((resolve, reject) => {
    const read = (chunk: Buffer) => {
      output += chunk.toString()
      if ((output.match(/Server listening at http:\/\/127\.0\.0\.1:\d+/g) ?? []).length >= 2 && /Instances on/.test(output)) resolve()
    }
    child.stdout.on('data', read)
    child.stderr.on('data', read)
    child.once('exit', (code) => reject(new Error(`npm run cluster exited (${code}):\n${output}`)))
  })
  t.match(output, /schema cluster_demo, Redis redis:\/\/127\.0\.0\.1:6379\/7, storage /, 'the places it uses, printed')
  const admin = new pg.Client({ connectionString: TEST_DATABASE_URL })
  await admin.connect()
  t.teardown(() => admin.end())
  const users = await admin.query(`select count(*) as n from "cluster_demo".users`)
  t.ok(Number(users.rows[0].n) >= 27, 'its users are in the schema cluster_demo')
  child.kill('SIGTERM')
  t.equal(await exited, 0, 'SIGTERM stops both')
})
