import type { Migration } from 'kysely'
import { createTemplateSlots } from './001-digital-pdf-template-slots.ts'
import { createDigitalSignatures } from '../../library/migrations/002-digital-signatures.ts'
import { createSigningSessions } from '../../sessions/migrations/003-signing-sessions.ts'
import { auditTrailIsAppendOnly } from '../../sessions/migrations/004-audit-trail-is-append-only.ts'
import { createOutboxAndWebhooks } from '../../outbox/migrations/005-outbox-and-webhooks.ts'
import { signingAgainKeepsItsReason } from '../../library/migrations/006-signing-again-keeps-its-reason.ts'
import { addSessionReminders } from '../../sessions/migrations/007-session-reminders.ts'
import { addSessionMessageAndDueDate } from '../../sessions/migrations/008-session-message-and-due-date.ts'
import { createIssuedCertificates } from '../../pki/migrations/009-issued-certificates.ts'
import { sessionWritesNotify } from '../../sessions/migrations/010-session-writes-notify.ts'
import { addOutboxPickIndexes } from '../../outbox/migrations/011-outbox-pick-indexes.ts'
import { createStoredObjects } from '../../../../core/storage/stored-objects-migration.ts'
import { addDocumentsAndExternalSigners } from '../../documents/migrations/013-documents-and-external-signers.ts'
import { addDocumentTemplates } from '../../documents/migrations/014-document-templates.ts'
import { documentTemplateWritesNotify } from '../../documents/migrations/015-document-template-writes-notify.ts'

/** The plugin's migrations, by name; the name prefix fixes the order. Later issues add theirs. */
export const signatureMigrations: Record<string, Migration> = {
  'signature-001-digital-pdf-template-slots': createTemplateSlots,
  'signature-002-digital-signatures': createDigitalSignatures,
  'signature-003-signing-sessions': createSigningSessions,
  'signature-004-audit-trail-is-append-only': auditTrailIsAppendOnly,
  'signature-005-outbox-and-webhooks': createOutboxAndWebhooks,
  'signature-006-signing-again-keeps-its-reason': signingAgainKeepsItsReason,
  'signature-007-session-reminders': addSessionReminders,
  'signature-008-session-message-and-due-date': addSessionMessageAndDueDate,
  'signature-009-issued-certificates': createIssuedCertificates,
  'signature-010-session-writes-notify': sessionWritesNotify,
  'signature-011-outbox-pick-indexes': addOutboxPickIndexes,
  // The database storage driver's objects (STORAGE_DRIVER=database): documents, page images, key files.
  'signature-012-stored-objects': createStoredObjects,
  'signature-013-documents-and-external-signers': addDocumentsAndExternalSigners,
  'signature-014-document-templates': addDocumentTemplates,
  'signature-015-document-template-writes-notify': documentTemplateWritesNotify,
}
