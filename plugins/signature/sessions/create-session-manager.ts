import path from 'node:path'
import type { Policy } from '../../../core/access/policy.ts'
import type { SigningIdentity } from '../certificates/index.ts'
import type { SignableSource } from '../contracts/signable-source.ts'
import type { SignatureServices } from '../signature-services.ts'
import { loadOrCreateApplicationSigner } from './application-signer.ts'
import { DocumentRepository } from '../documents/document-repository.ts'
import { readP12 } from '../certificates/index.ts'
import type { SessionEventSink } from './session-notifications.ts'
import { SessionRepository } from './session-repository.ts'
import { SigningSessionManager, type SessionManagerDependencies } from './signing-session-manager.ts'

/**
 * The manager over the app's signature services. The application's signing certificate is issued
 * (or read) on the first session, not at boot: most boots, and every test app, never need it.
 */
export function createSessionManager(services: SignatureServices, options: {
  storagePath: string
  source: SignableSource
  users: SessionManagerDependencies['users']
  policy: Policy
  hooks?: SessionManagerDependencies['hooks']
  /** The outbox: sees every audit event in its transaction. */
  events?: SessionEventSink
  metrics?: SessionManagerDependencies['metrics']
}): SigningSessionManager {
  let signer: Promise<SigningIdentity> | undefined
  return new SigningSessionManager({
    repository: new SessionRepository(services.database.db, options.events),
    registry: services.registry,
    slots: services.slots,
    source: options.source,
    users: options.users,
    library: services.library,
    policy: options.policy,
    disk: services.disk,
    pdf: services.pdf,
    staleClaimMs: services.config.sessions.stale_claim_ms,
    longTermValidation: services.ltv,
    // In the CA's register too, so OCSP vouches for the certificate that certifies every document.
    applicationSigner: () => (signer ??= loadOrCreateApplicationSigner(path.join(options.storagePath, 'keys'), services.certificateAuthority)
      .then(async (identity) => { await services.pki.recordCertificate(identity.certificates[0]!); return identity })
      .catch((error) => { signer = undefined; throw error })),
    documents: {
      documents: new DocumentRepository(services.database.db),
      secrets: services.secrets,
      limits: services.config.documents,
      outbox: services.outboxWriter,
      // Issued for one signing and recorded in the CA's register, so OCSP and the sealing vouch for it.
      issueCertificate: async (subject) => {
        const issued = await services.library.certificates.issue(subject)
        const identity = readP12(issued.p12, issued.password)
        await services.pki.recordCertificate(identity.certificates[0]!)
        return issued
      },
    },
    ...(options.hooks ? { hooks: options.hooks } : {}),
    ...(options.metrics ? { metrics: options.metrics } : {}),
  })
}
