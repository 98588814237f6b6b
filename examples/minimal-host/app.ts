import { randomBytes } from 'node:crypto'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import type { FastifyInstance } from 'fastify'
import { compilePolicy, createMemoryLoginThrottle, createCoreApp, openDatabase, migrateToLatest, authPages, Panel, setupViews } from '../../core/index.ts'
import { SignaturePlugin, Signatures, signatureMigrations } from '../../plugins/signature/index.ts'
import { invoiceResource } from './invoice-resource.ts'
import { invoiceTemplate } from './invoice-template.ts'
import { invoiceRecords } from './invoices.ts'
import { access, fixedUsers } from './users.ts'

const HERE = path.dirname(fileURLToPath(import.meta.url))
const ROOT = path.resolve(HERE, '..', '..')

/** A second host: invoices, signed by their customers, at /office. */
export async function buildMinimalHost({ storagePath }: { storagePath: string }): Promise<FastifyInstance> {
  // The host owns its database and runs its migrations, the signature plugin's among them.
  const database = openDatabase({ sqliteFile: path.join(storagePath, 'app.sqlite') })
  await migrateToLatest(database.db, signatureMigrations)

  const policy = compilePolicy(access)
  const users = await fixedUsers()
  // One throttle for the JSON login and the login page: neither is a way around the other.
  const throttle = createMemoryLoginThrottle({ windowSeconds: 900, maxFailuresPerEmail: 5, maxFailuresPerClient: 20 })
  const app = await createCoreApp({
    bodyLimit: 12 * 1024 * 1024,
    requestTimeoutMs: 30_000,
    session: { key: randomBytes(32), cookieName: 'sid', ttlSeconds: 8 * 3600, secure: 'auto' },
    throttle,
    policy,
    users,
  })
  app.addHook('onClose', () => database.close())
  await app.register(setupViews, { root: ROOT, publicDir: path.join(ROOT, 'public'), production: false })
  await app.register(authPages, { users, throttle })

  await app.register(Signatures.make({
    config: {},
    database,
    storagePath,
    viewsRoot: path.join(HERE, 'views'),
    records: invoiceRecords(),
  }).templates([invoiceTemplate]))

  await app.register(Panel.make()
    .id('office')
    .path('office')
    .access('signed-in')
    .resources([invoiceResource(policy)])
    .plugin(SignaturePlugin.make().pages(['templates', 'signer', 'my-signatures'])))
  return app
}
