import type { FastifyInstance, FastifyServerOptions } from 'fastify'
import { compilePolicy, createMemoryLoginThrottle, createCoreApp, launcherPages, authPages, setupViews, Disks, createRedisLoginThrottle, migrateToLatest, lateLog, databaseAnswers, registerDatabaseMetrics, metricsAccess, type LoginThrottle, type ThrottleOptions, type UserRepository } from '../core/index.ts'
import { access, auth } from '../config/auth.ts'
import { loadAppEnv, PROJECT_ROOT, type AppEnv } from '../config/app.ts'
import path from 'node:path'
import { adminPanel } from '../panels/admin.ts'
import { appPanel } from '../panels/app.ts'
import { modules } from './modules.ts'
import { userResource } from './users/user-resource.ts'
import { loadSessionKey } from './session-key.ts'
import { demoUsers } from './users/demo-users.ts'
import { MemoryUserRepository } from './users/memory-user-repository.ts'
import { SessionVersionLedger } from './users/session-version-ledger.ts'
import { DatabaseUserRepository } from './users/database-user-repository.ts'
import { userMigrations } from './users/migrations/001-users.ts'
import { openInfrastructure } from './infrastructure.ts'
import { usersApi } from './users/users-api.ts'
import { createUserService } from './users/user-service.ts'
import { signature } from '../config/signature.ts'
import { SignaturePlugin, Signatures, signatureMigrations } from '../plugins/signature/index.ts'
import { seedSignableRecords } from './records/seed-signable-records.ts'
import { ContractTemplate } from './templates/contract-template.ts'
import { PayslipTemplate } from './templates/payslip-template.ts'

/** Root of the host's Eta views: the PDF layouts of config templates ('pdf.x' -> pdf/x.eta). */
export const HOST_VIEWS = path.join(PROJECT_ROOT, 'host-app', 'views')

export interface BuildOptions {
  env?: Partial<AppEnv>
  logger?: FastifyServerOptions['logger']
  users?: UserRepository
  throttle?: ThrottleOptions | LoginThrottle
}

/** Composes the whole application; tests call it directly, server.ts adds listen and signals. */
export async function buildApp(options: BuildOptions = {}): Promise<FastifyInstance> {
  const env = { ...loadAppEnv(), ...options.env }
  const policy = compilePolicy(access)
  const metrics = env.METRICS === 'on' && { token: env.METRICS_TOKEN, allow: env.METRICS_ALLOW }
  // A metrics setting that cannot work stops the boot before anything is opened.
  if (metrics) metricsAccess(metrics)
  // Read before anything is opened: a damaged file stops the boot with nothing to close.
  const memoryUsers = !options.users && env.USERS_STORE === 'memory'
    ? new MemoryUserRepository(await demoUsers(), await SessionVersionLedger.open(new Disks(env.STORAGE_PATH).disk('users')))
    : undefined
  // Faults of the database and Redis, which open before the app's logger exists: JSON either way.
  const faults = lateLog()
  const infrastructure = await openInfrastructure(env, faults)
  const databaseUsers = !options.users && env.USERS_STORE === 'database' ? new DatabaseUserRepository(infrastructure.database.db) : undefined
  const users = options.users ?? databaseUsers ?? memoryUsers!
  // One throttle for the JSON login and the login page: neither is a way around the other.
  // With Redis it is shared by every instance.
  const given = options.throttle ?? auth.throttle
  const throttle = 'retryAfter' in given ? given
    : infrastructure.redis ? createRedisLoginThrottle(infrastructure.redis, given, { log: faults }) : createMemoryLoginThrottle(given)
  const app = await createCoreApp({
    logger: options.logger,
    trustProxy: env.TRUST_PROXY,
    bodyLimit: env.BODY_LIMIT,
    requestTimeoutMs: env.REQUEST_TIMEOUT_MS,
    strictTransportSecurity: env.NODE_ENV === 'production',
    session: {
      key: await loadSessionKey(env.SESSION_KEY, env.STORAGE_PATH),
      cookieName: auth.cookieName,
      ttlSeconds: auth.sessionTtlSeconds,
      secure: env.NODE_ENV === 'production' ? true : 'auto',
      decodedCookieCache: env.SESSION_CACHE_ENTRIES,
    },
    throttle,
    policy,
    users,
    observability: { metrics },
  })
  faults.sendTo(app.log)
  // Ready once migrated; on PostgreSQL also while it answers (SQLite is a file of this process).
  let migrated = false
  app.readiness.add('migrations', () => (migrated ? 'ok' : 'pending'))
  if (infrastructure.database.engine === 'postgres') {
    app.readiness.add('database', databaseAnswers(infrastructure.database.db, { timeoutMs: env.READINESS_TIMEOUT_MS }))
  }
  registerDatabaseMetrics(app.metrics, infrastructure.database.db)
  const userService = createUserService(policy, users, {
    // A deleted signer cannot sign: the sessions waiting for them end, and their creators are told.
    removed: async (ids) => { for (const id of ids) await app.signature.sessions.signerRemoved(id) },
  })
  await app.register(usersApi, { service: userService })

  // Pages: views and error pages, sign-in, the launcher, and the panels.
  await app.register(setupViews, { root: PROJECT_ROOT, publicDir: path.join(PROJECT_ROOT, 'public'), production: env.NODE_ENV === 'production', ...(env.SOURCE_URL ? { sourceUrl: env.SOURCE_URL } : {}) })
  await app.register(authPages, { users, throttle })
  await app.register(launcherPages, { modules })
  // One database for every table: the host runs its migrations and the plugin's, then seeds.
  app.addHook('onClose', () => infrastructure.close())
  await migrateToLatest(infrastructure.database.db, { ...userMigrations, ...signatureMigrations })
  migrated = true
  // Seeded once on first boot (idempotent: concurrent first boots insert each user once).
  if (databaseUsers) await databaseUsers.seed(await demoUsers())

  // Signatures, app-wide: templates from config (eager) and the contract (fluent, here)...
  const records = seedSignableRecords()
  await app.register(Signatures.make({
    config: signature,
    database: infrastructure.database,
    storagePath: env.STORAGE_PATH,
    storageDriver: env.STORAGE_DRIVER,
    viewsRoot: HOST_VIEWS,
    records,
    ...(process.env.SIGNATURE_ENCRYPTION_KEY ? { encryptionKey: process.env.SIGNATURE_ENCRYPTION_KEY } : {}),
    smtpUrl: env.SMTP_URL,
    publicUrl: env.PUBLIC_URL,
    mailFrom: env.MAIL_FROM,
    allowPrivateWebhooks: env.WEBHOOKS_ALLOW_PRIVATE,
  }).templates([ContractTemplate]))
  // ...and the payslip at runtime, through the registry, as any plugin of the host could.
  app.signature.registry.register(PayslipTemplate)

  // Each panel chooses its pages: administrators place slots; everyone signs at /app.
  await app.register(adminPanel({ resources: [userResource(userService, policy)], plugins: [SignaturePlugin.make().pages(['templates', 'designer', 'signer', 'outbox', 'webhooks'])] }))
  await app.register(appPanel({ plugins: [SignaturePlugin.make().pages(['signer', 'my-signatures', 'inbox', 'sessions', 'documents', 'verify'])] }))
  return app
}
