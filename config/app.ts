import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { z } from 'zod'

export const PROJECT_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')

const envSchema = z.object({
  HOST: z.string().default('127.0.0.1'),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  /** 32 bytes, hex (64 chars) or base64; when unset a key is generated under storage/. */
  SESSION_KEY: z.string().optional(),
  STORAGE_PATH: z.string().default(path.join(PROJECT_ROOT, 'storage')),
  BODY_LIMIT: z.coerce.number().int().min(1024).default(1024 * 1024),
  TRUST_PROXY: z.enum(['true', 'false']).default('false').transform((v) => v === 'true'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
})

export type AppEnv = z.output<typeof envSchema>

/** Reads the environment once at boot; a bad value stops the boot naming the variable. */
export function loadAppEnv(env: NodeJS.ProcessEnv = process.env): AppEnv {
  const result = envSchema.safeParse(env)
  if (!result.success) {
    throw new Error(`Invalid environment: ${result.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`)
  }
  return result.data
}
