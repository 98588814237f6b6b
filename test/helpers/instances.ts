import { spawn, type ChildProcess } from 'node:child_process'
import path from 'node:path'
import { PROJECT_ROOT } from '../../config/app.ts'
import { openDatabase, type Database } from '../../core/db/database.ts'

export interface Instance {
  url: string
  child: ChildProcess
  /** SIGKILL: a crash, not a shutdown. */
  kill(): void
  stop(): Promise<void>
}

/**
 * A real server process on an ephemeral port, with the given environment: host-app/server.ts
 * through tsx, or `command` (node's arguments: options and the entry file).
 */
export async function startInstance(name: string, env: Record<string, string>, command = ['--import', 'tsx', 'host-app/server.ts']): Promise<Instance> {
  const merged: NodeJS.ProcessEnv = { ...process.env, ...env, HOST: '127.0.0.1', PORT: '0', LOG_LEVEL: 'info', NODE_ENV: 'production' }
  // A variable given as '' is unset: a SQLite case inside the suite's PostgreSQL pass drops DATABASE_URL.
  for (const [key, value] of Object.entries(merged)) if (value === '') delete merged[key]
  const child = spawn(process.execPath, command, {
    cwd: PROJECT_ROOT,
    env: merged,
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let output = ''
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`instance ${name} did not start in 60 s:\n${output}`)), 60_000)
    const onData = (chunk: Buffer) => {
      output += chunk.toString()
      const match = /Server listening at (http:\/\/127\.0\.0\.1:\d+)/.exec(output)
      if (match) {
        clearTimeout(timer)
        resolve(match[1]!)
      }
    }
    child.stdout!.on('data', onData)
    child.stderr!.on('data', (chunk: Buffer) => { output += chunk.toString() })
    child.once('exit', (code) => {
      clearTimeout(timer)
      reject(new Error(`instance ${name} exited with ${code}:\n${output}`))
    })
  })
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))
  return {
    url,
    child,
    kill: () => child.kill('SIGKILL'),
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM')
      await exited
    },
  }
}

const REQUEST_DEADLINE_MS = 60_000

/** A cookie jar of one: the session cookie as the server set it (raw, still URL-encoded). */
export class Client {
  cookie = ''
  constructor(public base: string) {}

  async request(method: string, path: string, body?: unknown, headers: Record<string, string> = {}, base = this.base) {
    // A request that never answers fails here, naming itself, instead of running into the file's timeout.
    const response = await fetch(base + path, {
      method,
      headers: { ...(this.cookie ? { cookie: this.cookie } : {}), ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
      body: body === undefined ? undefined : JSON.stringify(body),
      redirect: 'manual',
      signal: AbortSignal.timeout(REQUEST_DEADLINE_MS),
    }).catch((error: Error) => {
      throw error.name === 'TimeoutError' ? new Error(`${method} ${base}${path}: no answer in ${REQUEST_DEADLINE_MS / 1000} s`) : error
    })
    const set = response.headers.getSetCookie()[0]
    if (set) this.cookie = set.split(';')[0]!
    return response
  }

  async login(email: string, base = this.base) {
    const response = await this.request('POST', '/api/auth/login', { email, password: 'password' }, {}, base)
    if (response.status !== 200) throw new Error(`login ${email}: ${response.status} ${await response.text()}`)
  }

  async csrf(base = this.base): Promise<string> {
    const html = await (await this.request('GET', '/dashboard', undefined, { accept: 'text/html' }, base)).text()
    const match = /<meta name="csrf-token" content="([^"]+)">/.exec(html)
    if (!match) throw new Error('no csrf-token meta tag')
    return match[1]!
  }
}

/** The database an instance started with `env` writes (PostgreSQL in its schema, or its SQLite file), for a test to read. */
export function openInstanceDatabase(env: Record<string, string>): Database<any> {
  return openDatabase<any>(env.DATABASE_URL
    ? { url: env.DATABASE_URL, schema: env.DATABASE_SCHEMA! }
    : { sqliteFile: path.join(env.STORAGE_PATH!, 'database', 'app.sqlite') })
}
