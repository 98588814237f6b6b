import type { FastifyInstance } from 'fastify'
import { buildApp, type BuildOptions } from '../../host-app/app.ts'
import { isolatedEnv } from './test-env.ts'

interface TapLike {
  teardown(fn: () => unknown): void
}

/** A fresh application per test: its own storage folder, its own in-memory users, closed on teardown. */
export async function buildTestApp(t: TapLike, options: BuildOptions = {}): Promise<FastifyInstance> {
  const { env, cleanup } = await isolatedEnv()
  const app = await buildApp({ ...options, env: { ...env, ...options.env } })
  t.teardown(async () => {
    await app.close()
    await cleanup()
  })
  await app.ready()
  return app
}

export const DEMO = {
  admin: { email: 'admin@example.com', id: 'u-admin' },
  manager: { email: 'manager@example.com', id: 'u-manager' },
  staff: { email: 'staff@example.com', id: 'u-staff' },
} as const

/** Signs in through the JSON API and returns the Cookie header value to send with later requests. */
export async function login(app: FastifyInstance, email: string, password = 'password'): Promise<string> {
  const response = await app.inject({ method: 'POST', url: '/api/auth/login', payload: { email, password } })
  if (response.statusCode !== 200) throw new Error(`login ${email} failed: ${response.statusCode} ${response.body}`)
  // The raw pair, still URL-encoded: the decoded secure-session value contains ';'.
  const header = response.headers['set-cookie']
  const first = Array.isArray(header) ? header[0] : header
  if (!first) throw new Error('login set no cookie')
  return first.split(';')[0]!
}
