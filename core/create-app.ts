import { randomBytes } from 'node:crypto'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import type { FastifyInstance, FastifyPluginAsync, FastifyPluginCallback } from 'fastify'
import { compilePolicy, type AccessConfigInput, type Policy } from './access/index.ts'
import { fixedUsers, type FixedAccount } from './auth/fixed-users.ts'
import { createMemoryLoginThrottle, type LoginThrottle, type ThrottleOptions } from './auth/login-throttle.ts'
import type { UserRepository } from './auth/user-repository.ts'
import { createCoreApp, type CoreAppOptions } from './create-core-app.ts'
import type { Database } from './db/database.ts'
import type { LauncherModule } from './launcher/define-modules.ts'
import { launcherPages } from './launcher/launcher-pages.ts'
import { authPages } from './panel/auth-pages.ts'
import type { PanelBuilder } from './panel/panel.ts'
import { loadOrCreateKeyFile } from './storage/key-file.ts'
import { navigate } from './views/htmx.ts'
import { setupViews, type ViewsOptions } from './views/setup-views.ts'

/** The framework's own folder: its views and public assets (the checkout, or the built package). */
const FRAMEWORK_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')

export interface CreateAppOptions {
  /** Who may do what: the access configuration (roles, hierarchy, deny, adminRoles), or a policy compiled from it. */
  access: AccessConfigInput | Policy
  /** The users store, or a few fixed accounts (sign-in and sign-out; every change refused). */
  users: UserRepository | readonly FixedAccount[]
  /** Registered last, in order: Panel.make()... builders. */
  panels?: PanelBuilder[]
  /** The launcher at /dashboard (tiles and dock, filtered by role). Without it /dashboard leads to the first panel. */
  modules?: LauncherModule[]
  /** App-level Fastify plugins registered before the panels, in order (e.g. Signatures.make(...)). */
  plugins?: Array<FastifyPluginAsync<any> | FastifyPluginCallback<any>>
  /** The host's database (migrated by the host): closed when the app closes, after everything registered here. */
  database?: Database<any>
  /** Given: the session key is kept in <storagePath>/keys/session.key, so sessions survive a restart. Without: a new key per boot. */
  storagePath?: string
  session?: Partial<CoreAppOptions['session']>
  /** One throttle for the JSON login and the login page; default 5 failures per e-mail, 20 per client, per 15 minutes. */
  throttle?: ThrottleOptions | LoginThrottle
  /** Default: the framework's views and assets, templates cached when NODE_ENV is production. */
  views?: Partial<ViewsOptions>
  logger?: CoreAppOptions['logger']
  trustProxy?: boolean
  /** Default 12 MiB (PDF uploads). */
  bodyLimit?: number
  /** Default 30 s. */
  requestTimeoutMs?: number
}

export const DEFAULT_THROTTLE: ThrottleOptions = { windowSeconds: 15 * 60, maxFailuresPerEmail: 5, maxFailuresPerClient: 20 }

/**
 * An application in one call: security headers, errors, sessions, sign-in (JSON and pages), the
 * throttle, the views, the launcher or a /dashboard that leads to the first panel, the host's
 * plugins, then its panels. Every part has a default a host can override; createCoreApp,
 * setupViews and authPages stay available for a host that composes them itself.
 */
export async function createApp(options: CreateAppOptions): Promise<FastifyInstance> {
  const policy = 'decide' in options.access ? options.access : compilePolicy(options.access)
  const users = Array.isArray(options.users) ? await fixedUsers(options.users as readonly FixedAccount[]) : options.users as UserRepository
  const given = options.throttle ?? DEFAULT_THROTTLE
  // One throttle object for both sign-in routes: neither is a way around the other.
  const throttle = 'retryAfter' in given ? given : createMemoryLoginThrottle(given)
  const production = process.env.NODE_ENV === 'production'
  const key = options.session?.key
    ?? (options.storagePath ? await loadOrCreateKeyFile(path.join(options.storagePath, 'keys', 'session.key')) : randomBytes(32))
  const app = await createCoreApp({
    logger: options.logger,
    trustProxy: options.trustProxy,
    bodyLimit: options.bodyLimit ?? 12 * 1024 * 1024,
    requestTimeoutMs: options.requestTimeoutMs ?? 30_000,
    session: { cookieName: 'sid', ttlSeconds: 8 * 3600, secure: production ? true : 'auto', ...options.session, key },
    throttle,
    policy,
    users,
  })
  if (options.database) {
    const { database } = options
    app.addHook('onClose', () => database.close())
  }
  try {
    await app.register(setupViews, { root: FRAMEWORK_ROOT, publicDir: path.join(FRAMEWORK_ROOT, 'public'), production, ...options.views })
    await app.register(authPages, { users, throttle })
    if (options.modules) {
      await app.register(launcherPages, { modules: options.modules })
    } else {
      const home = `/${options.panels?.[0]?.describe().path ?? 'login'}`
      app.get('/', async (request, reply) => navigate(request, reply, request.user ? home : '/login', 302))
      app.get('/dashboard', async (request, reply) => navigate(request, reply, home, 302))
    }
    for (const plugin of options.plugins ?? []) await app.register(plugin)
    for (const panel of options.panels ?? []) await app.register(panel)
  } catch (error) {
    await app.close().catch(() => {})
    throw error
  }
  return app
}
