import type { Migration } from 'kysely'
import { createTemplateSlots } from './001-digital-pdf-template-slots.ts'
import { createDigitalSignatures } from '../../library/migrations/002-digital-signatures.ts'
import { createSigningSessions } from '../../sessions/migrations/003-signing-sessions.ts'
import { auditTrailIsAppendOnly } from '../../sessions/migrations/004-audit-trail-is-append-only.ts'

/** The plugin's migrations, by name; the name prefix fixes the order. Later issues add theirs. */
export const signatureMigrations: Record<string, Migration> = {
  'signature-001-digital-pdf-template-slots': createTemplateSlots,
  'signature-002-digital-signatures': createDigitalSignatures,
  'signature-003-signing-sessions': createSigningSessions,
  'signature-004-audit-trail-is-append-only': auditTrailIsAppendOnly,
}
