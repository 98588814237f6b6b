import type { FastifyInstance, FastifyServerOptions } from 'fastify'
import { compilePolicy } from '../core/access/policy.ts'
import type { LoginThrottle, ThrottleOptions } from '../core/auth/login-throttle.ts'
import type { UserRepository } from '../core/auth/user-repository.ts'
import { createCoreApp } from '../core/create-core-app.ts'
import { access, auth } from '../config/auth.ts'
import { loadAppEnv, type AppEnv } from '../config/app.ts'
import { loadSessionKey } from './session-key.ts'
import { demoUsers } from './users/demo-users.ts'
import { MemoryUserRepository } from './users/memory-user-repository.ts'
import { usersApi } from './users/users-api.ts'
import { createUserService } from './users/user-service.ts'

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
  const users = options.users ?? new MemoryUserRepository(await demoUsers())
  const app = await createCoreApp({
    logger: options.logger,
    trustProxy: env.TRUST_PROXY,
    bodyLimit: env.BODY_LIMIT,
    session: {
      key: await loadSessionKey(env.SESSION_KEY, env.STORAGE_PATH),
      cookieName: auth.cookieName,
      ttlSeconds: auth.sessionTtlSeconds,
      secure: env.NODE_ENV === 'production' ? true : 'auto',
    },
    throttle: options.throttle ?? auth.throttle,
    policy,
    users,
  })
  await app.register(usersApi, { service: createUserService(policy, users) })
  return app
}
