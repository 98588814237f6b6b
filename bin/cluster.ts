// Two instances on ports 3001 and 3002 against the local PostgreSQL and Redis, for trying the
// scale-out setup by hand: `npm run cluster`. Put any load balancer in front (see README).
// They get places of their own, printed at start: the schema `cluster_demo` (created when missing)
// and Redis database 7, so trying it never writes into another app's tables or keys.
import { randomBytes } from 'node:crypto'
import { spawn } from 'node:child_process'
import { mkdirSync, readFileSync, writeFileSync, existsSync } from 'node:fs'
import path from 'node:path'
import pg from 'pg'
import { PROJECT_ROOT } from '../config/app.ts'
import { compileForStart } from './compile-for-start.ts'
import { START_ENTRY, startScriptNodeArgs } from './start-script-node-args.ts'

const storage = process.env.STORAGE_PATH ?? path.join(PROJECT_ROOT, 'storage', 'cluster')
mkdirSync(storage, { recursive: true })
// Every instance must share these; kept in the shared storage folder so restarts keep sessions.
const secretFile = path.join(storage, 'cluster-secrets.json')
if (!existsSync(secretFile)) {
  writeFileSync(secretFile, JSON.stringify({ SESSION_KEY: randomBytes(32).toString('hex'), SIGNATURE_ENCRYPTION_KEY: randomBytes(32).toString('hex') }), { mode: 0o600, flag: 'wx' })
}
const secrets = JSON.parse(readFileSync(secretFile, 'utf8')) as Record<string, string>
const DATABASE_URL = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test'
const DATABASE_SCHEMA = process.env.DATABASE_SCHEMA ?? 'cluster_demo'
if (!/^[a-z_][a-z0-9_]*$/.test(DATABASE_SCHEMA)) throw new Error(`DATABASE_SCHEMA must be a lower-case SQL identifier: ${DATABASE_SCHEMA}`)
const admin = new pg.Client({ connectionString: DATABASE_URL, connectionTimeoutMillis: 5000 })
await admin.connect()
await admin.query(`create schema if not exists "${DATABASE_SCHEMA}"`)
await admin.end()
const env = {
  ...process.env,
  ...secrets,
  DATABASE_URL,
  DATABASE_SCHEMA,
  REDIS_URL: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379/7',
  USERS_STORE: 'database',
  STORAGE_PATH: storage,
}
const nodeArgs = await startScriptNodeArgs()
await compileForStart()
const ports = (process.env.CLUSTER_PORTS ?? '3001,3002').split(',')
const children = ports.map((port) => {
  // Each instance runs as npm start does.
  const child = spawn(process.execPath, [...nodeArgs, START_ENTRY], { cwd: PROJECT_ROOT, env: { ...env, PORT: port }, stdio: 'inherit' })
  child.on('exit', (code, signal) => console.error(`instance on :${port} exited (${signal ?? code})`))
  return child
})
console.error(`Instances on ${ports.map((p) => `http://127.0.0.1:${p}`).join(' and ')}; database ${env.DATABASE_URL.replace(/\/\/[^@]*@/, '//')} schema ${DATABASE_SCHEMA}, Redis ${env.REDIS_URL.replace(/\/\/[^@]*@/, '//')}, storage ${storage}`)
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => children.forEach((c) => c.kill('SIGTERM')))
