import path from 'node:path'
import fp from 'fastify-plugin'
import type { Migration } from 'kysely'
import { openDatabase, type Database } from '../../core/db/database.ts'
import { migrateToLatest } from '../../core/db/migrate.ts'
import { createTemplateRegistry, type TemplateRegistryOptions } from './create-template-registry.ts'
import type { SignatureTables } from './database/schema.ts'
import { signatureMigrations } from './database/migrations/index.ts'
import { TemplateSlotRepository } from './database/template-slot-repository.ts'
import type { PdfTemplateRegistry } from './registry/pdf-template-registry.ts'
import type { SignatureConfig } from './signature-config.ts'

export interface SignatureServices {
  readonly config: SignatureConfig
  readonly registry: PdfTemplateRegistry
  readonly database: Database<SignatureTables>
  readonly slots: TemplateSlotRepository
  close(): Promise<void>
}

export interface SignatureServicesOptions extends TemplateRegistryOptions {
  /** postgres://... for PostgreSQL; otherwise SQLite in <storagePath>/database/app.sqlite. */
  databaseUrl?: string
  /** Migrations of other parts of the app that share this database. */
  migrations?: Record<string, Migration>
}

/** Registry, database (migrated) and repositories: everything the plugin's routes use. */
export async function createSignatureServices(config: SignatureConfig, options: SignatureServicesOptions): Promise<SignatureServices> {
  const registry = createTemplateRegistry(config, options)
  const database = openDatabase<SignatureTables>(options.databaseUrl
    ? { url: options.databaseUrl }
    : { sqliteFile: path.join(options.storagePath, 'database', 'app.sqlite') })
  try {
    // Every boot: a no-op when nothing is pending, for SQLite and PostgreSQL alike.
    await migrateToLatest(database.db, { ...signatureMigrations, ...options.migrations })
  } catch (error) {
    await database.close()
    throw error
  }
  return {
    config,
    registry,
    database,
    slots: new TemplateSlotRepository(database.db),
    async close() {
      await registry.close()
      await database.close()
    },
  }
}

declare module 'fastify' {
  interface FastifyInstance {
    /** The app-wide signature services; panels' SignaturePlugin instances use these. */
    signature: SignatureServices
  }
}

/** Shares the services with the whole app (hence fastify-plugin) and closes them with it. */
export const signatureServicesPlugin = fp<{ services: SignatureServices }>(async (app, { services }) => {
  app.decorate('signature', services)
  app.addHook('onClose', () => services.close())
}, { name: 'signature-services' })
