import { notifyWritesTo } from '../../../../core/db/postgres-write-stamp.ts'

// Saved templates are in every instance's registry (documents/document-templates.ts refreshes it
// when the write stamp moved). On PostgreSQL another instance's save, rename or delete reaches this
// one as a notification sent when it commits; without the trigger only this instance's own writes
// would move the stamp. SQLite needs nothing: data_version moves with every connection's commit.
export const documentTemplateWritesNotify = notifyWritesTo(['document_templates'])
