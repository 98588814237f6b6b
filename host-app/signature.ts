import type { Migration } from 'kysely'
import type { Database } from '../core/db/database.ts'
import path from 'node:path'
import type { FastifyInstance } from 'fastify'
import { PROJECT_ROOT } from '../config/app.ts'
import { signature } from '../config/signature.ts'
import type { Policy } from '../core/access/policy.ts'
import { signablesApi } from '../plugins/signature/signables/signables-api.ts'
import { signatureLibraryApi } from '../plugins/signature/library/signature-library-api.ts'
import { signingApi } from '../plugins/signature/signing/signing-api.ts'
import { createSessionManager } from '../plugins/signature/sessions/create-session-manager.ts'
import { signingSessionsApi } from '../plugins/signature/sessions/sessions-api.ts'
import { parseSignatureConfig } from '../plugins/signature/signature-config.ts'
import { createSignatureServices, signatureServicesPlugin, type SignatureServices } from '../plugins/signature/signature-services.ts'
import { MemorySignableRecords } from './records/memory-signable-records.ts'
import { seedSignableRecords } from './records/seed-signable-records.ts'
import { PayslipTemplate } from './templates/payslip-template.ts'

export const HOST_VIEWS = path.join(PROJECT_ROOT, 'host-app', 'views')

/**
 * The host's signature setup: config templates (eager), the payslip (runtime, through the
 * registry, as any plugin of the host could), the seeded records and GET /api/signables/:key.
 * The contract is the third way in: fluently, on the admin panel (host-app/app.ts).
 */
export async function setupSignature(app: FastifyInstance, options: { storagePath: string; database: Database<any>; migrations?: Record<string, Migration>; policy: Policy }): Promise<{ services: SignatureServices; records: MemorySignableRecords }> {
  const services = await createSignatureServices(parseSignatureConfig(signature), {
    storagePath: options.storagePath,
    viewsRoot: HOST_VIEWS,
    database: options.database,
    ...(options.migrations ? { migrations: options.migrations } : {}),
    ...(process.env.SIGNATURE_ENCRYPTION_KEY ? { encryptionKey: process.env.SIGNATURE_ENCRYPTION_KEY } : {}),
  })
  services.registry.register(PayslipTemplate)
  const records = seedSignableRecords(services.registry)
  // Signing sessions: the manager is also the signer's SessionFinalizer (finalize with request=).
  const sessions = createSessionManager(services, { storagePath: options.storagePath, source: records, users: app.users, policy: options.policy })
  services.sessions = sessions
  await app.register(signatureServicesPlugin, { services })
  await app.register(signablesApi, { registry: services.registry, source: records, policy: options.policy })
  await app.register(signatureLibraryApi, { library: services.library })
  await app.register(signingApi, { services, policy: options.policy })
  await app.register(signingSessionsApi, { sessions })
  return { services, records }
}
