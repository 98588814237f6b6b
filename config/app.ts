import { existsSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { z } from 'zod'
import { ERR_STORAGE_DRIVER_NEEDS_POSTGRES, STORAGE_DRIVER_NEEDS_POSTGRES_MESSAGE } from '../core/storage/storage-errors.ts'

/**
 * The folder of package.json. Found upward rather than as this file's parent because npm start
 * runs this file compiled, from dist/config/app.js (bin/compile-for-start.ts), and the storage
 * folder must not move into dist/, which every start rewrites.
 */
export const PROJECT_ROOT = findPackageRoot(path.dirname(fileURLToPath(import.meta.url)))

function findPackageRoot(from: string): string {
  for (let dir = from; ; dir = path.dirname(dir)) {
    if (existsSync(path.join(dir, 'package.json'))) return dir
    if (path.dirname(dir) === dir) throw new Error(`no package.json above ${from}`)
  }
}

const envSchema = z.object({
  HOST: z.string().default('127.0.0.1'),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  /** 32 bytes, hex (64 chars) or base64; when unset a key is generated under storage/. */
  SESSION_KEY: z.string().optional(),
  // Decrypted session cookies remembered (core/auth/session-cookie-cache.ts); 0 turns it off.
  SESSION_CACHE_ENTRIES: z.coerce.number().int().min(0).max(1_000_000).default(10_000),
  STORAGE_PATH: z.string().default(path.join(PROJECT_ROOT, 'storage')),
  /** 'database' keeps signed documents, page images and the signing keys in PostgreSQL (needs DATABASE_URL), so instances need no shared STORAGE_PATH. */
  STORAGE_DRIVER: z.enum(['disk', 'database']).default('disk'),
  BODY_LIMIT: z.coerce.number().int().min(1024).default(1024 * 1024),
  /** Milliseconds a client has to send a whole request, body included (slower: 408, connection closed). */
  REQUEST_TIMEOUT_MS: z.coerce.number().int().min(1).max(3_600_000).default(30_000),
  TRUST_PROXY: z.enum(['true', 'false']).default('false').transform((v) => v === 'true'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** postgres://... puts every table in PostgreSQL (several instances); unset: SQLite under storage/. */
  DATABASE_URL: z.string().regex(/^postgres(ql)?:\/\//, 'a postgres:// URL').optional(),
  /** PostgreSQL schema to work in (tests give each app its own). */
  DATABASE_SCHEMA: z.string().regex(/^[a-z_][a-z0-9_]*$/, 'a lower-case SQL identifier').optional(),
  /** 'false' runs PostgreSQL queries unnamed, for a connection pooler in transaction mode that cannot keep prepared statements. */
  DATABASE_PREPARED_STATEMENTS: z.enum(['true', 'false']).default('true').transform((v) => v === 'true'),
  /** 'false' opens no LISTEN connection, for a pooler in transaction mode that cannot keep one: caches over the database keep nothing. */
  DATABASE_LISTEN: z.enum(['true', 'false']).default('true').transform((v) => v === 'true'),
  /** Milliseconds to open a PostgreSQL connection; then 503 ERR_DATABASE_UNAVAILABLE. */
  DATABASE_CONNECT_TIMEOUT_MS: z.coerce.number().int().min(100).max(600_000).default(5000),
  /** PostgreSQL's statement_timeout for the app's statements (0: none); then 503 ERR_DATABASE_TIMEOUT. */
  DATABASE_STATEMENT_TIMEOUT_MS: z.coerce.number().int().min(0).max(3_600_000).default(10_000),
  /** PostgreSQL's lock_timeout for the app's statements (0: none); then 503 ERR_DATABASE_TIMEOUT. */
  DATABASE_LOCK_TIMEOUT_MS: z.coerce.number().int().min(0).max(3_600_000).default(5000),
  /** redis://... shares the sign-in throttle between instances. */
  REDIS_URL: z.string().regex(/^rediss?:\/\//, 'a redis:// URL').optional(),
  /** Where users live: in memory (the specification's default) or in the database (several instances). */
  USERS_STORE: z.enum(['memory', 'database']).default('memory'),
  /** smtp://user:pass@host:587 (or smtps://): e-mail is sent there; unset, each one is written as .eml under storage/mail. */
  SMTP_URL: z.string().regex(/^smtps?:\/\//, 'an smtp:// or smtps:// URL').optional(),
  /** The From of every e-mail: `hr@example.com` or `Example HR <hr@example.com>` (default: no-reply at PUBLIC_URL's host). */
  MAIL_FROM: z.string().max(254).regex(/^(?:[^<>"\r\n\\]{1,100} <[^\s<>@]+@[^\s<>@]+>|[^\s<>@]+@[^\s<>@]+)$/, 'an e-mail address, or Name <address>').optional(),
  /** The address people reach the app at, for links in e-mail (default: the listen address). */
  PUBLIC_URL: z.string().url().regex(/^https?:\/\//, 'an http(s):// URL').transform((v) => v.replace(/\/+$/, '')).optional(),
  /** Where every page's "Source" link points (AGPL-3.0 §13); default: /source.tar.gz, served by the app itself. */
  SOURCE_URL: z.string().url().regex(/^https?:\/\//, 'an http(s):// URL').optional(),
  /** 'true' lets webhook endpoints resolve to loopback or private addresses (refused by default). */
  WEBHOOKS_ALLOW_PRIVATE: z.enum(['true', 'false']).default('false').transform((v) => v === 'true'),
  /** 'on' serves GET /metrics (Prometheus), to METRICS_TOKEN or METRICS_ALLOW; off, nothing is measured. */
  METRICS: z.enum(['on', 'off']).default('off'),
  /** The bearer token a scraper sends (at least 16 characters). */
  METRICS_TOKEN: z.string().min(16, 'at least 16 characters').optional(),
  /** Addresses or CIDR ranges that may scrape without the token, comma-separated. */
  METRICS_ALLOW: z.string().optional().transform((v) => v?.split(',').map((s) => s.trim()).filter(Boolean)),
  /** /readyz counts PostgreSQL unreachable when `select 1` takes longer than this. */
  READINESS_TIMEOUT_MS: z.coerce.number().int().min(50).max(30_000).default(2000),
  /** After SIGTERM, /readyz answers 503 this long while requests are still served, before the server closes. */
  SHUTDOWN_DRAIN_MS: z.coerce.number().int().min(0).max(15_000).default(0),
}).superRefine((env, context) => {
  if (env.STORAGE_DRIVER === 'database' && !env.DATABASE_URL) {
    context.addIssue({ code: 'custom', path: ['STORAGE_DRIVER'], message: `${ERR_STORAGE_DRIVER_NEEDS_POSTGRES}: ${STORAGE_DRIVER_NEEDS_POSTGRES_MESSAGE}` })
  }
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
