// A core app with the signature plugin's app-level part and nothing of the host: for tests of how
// templates and records reach the plugin, without the host's panels, users API or seeds.
import { randomBytes } from 'node:crypto'
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import type { FastifyInstance } from 'fastify'
import { access, auth } from '../../config/auth.ts'
import { compilePolicy } from '../../core/access/policy.ts'
import { createCoreApp } from '../../core/create-core-app.ts'
import { openDatabase } from '../../core/db/database.ts'
import { migrateToLatest } from '../../core/db/migrate.ts'
import { MemoryUserRepository } from '../../host-app/users/memory-user-repository.ts'
import { Signatures, signatureMigrations, type RecordSource, type SignableSource, type SignatureConfigInput, type SignaturesBuilder, type SignatureAppOptions } from '../../plugins/signature/index.ts'

interface TapLike { teardown(fn: () => unknown): void }

const NO_RECORDS: SignableSource = { forTemplate: () => [], find: () => null }

/**
 * `configure` receives the builder made from `config` (views root: a temporary folder with
 * pdf/simple.eta) and returns what to register; the app is ready when this resolves.
 */
export async function buildSignatureApp(t: TapLike, options: {
  config?: SignatureConfigInput
  records?: RecordSource
  configure?: (builder: SignaturesBuilder) => SignaturesBuilder
  beforeReady?: (app: FastifyInstance) => unknown
  pkiRateLimit?: SignatureAppOptions['pkiRateLimit']
} = {}): Promise<FastifyInstance> {
  const base = await mkdtemp(path.join(tmpdir(), 'signature-app-'))
  const viewsRoot = path.join(base, 'views')
  await mkdir(path.join(viewsRoot, 'pdf'), { recursive: true })
  await writeFile(path.join(viewsRoot, 'pdf', 'simple.eta'), '<h1><%= it.title ?? "" %></h1>')
  const database = openDatabase<any>({ sqliteFile: path.join(base, 'app.sqlite') })
  await migrateToLatest(database.db, signatureMigrations)
  const app = await createCoreApp({
    bodyLimit: 1024 * 1024,
    requestTimeoutMs: 30_000,
    session: { key: randomBytes(32), cookieName: auth.cookieName, ttlSeconds: 3600, secure: 'auto' },
    throttle: auth.throttle,
    policy: compilePolicy(access),
    users: new MemoryUserRepository(),
  })
  t.teardown(async () => {
    await app.close()
    await database.close()
    await rm(base, { recursive: true, force: true })
  })
  const builder = Signatures.make({ config: options.config ?? {}, database, storagePath: path.join(base, 'storage'), viewsRoot, records: options.records ?? NO_RECORDS, ...(options.pkiRateLimit ? { pkiRateLimit: options.pkiRateLimit } : {}) })
  await app.register(options.configure ? options.configure(builder) : builder)
  await options.beforeReady?.(app)
  await app.ready()
  return app
}
