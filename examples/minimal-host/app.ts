import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { createApp, migrateToLatest, openDatabase, Panel } from '../../core/index.ts'
import { SignaturePlugin, Signatures, signatureMigrations } from '../../plugins/signature/index.ts'
import { invoiceResource } from './invoice-resource.ts'
import { invoiceTemplate } from './invoice-template.ts'
import { invoiceMigrations, type InvoiceTables } from './invoice-table.ts'
import { invoiceRecords, seedInvoices } from './invoices.ts'
import { access, accounts } from './users.ts'

const HERE = path.dirname(fileURLToPath(import.meta.url))

/** A second host: invoices, signed by their customers, at /office. */
export async function buildMinimalHost({ storagePath }: { storagePath: string }) {
  // The host owns its database and runs its migrations (its invoices table, the signature plugin's).
  const database = openDatabase({ sqliteFile: path.join(storagePath, 'app.sqlite') })
  await migrateToLatest(database.db, { ...invoiceMigrations, ...signatureMigrations })
  const db = database.db.withTables<InvoiceTables>()
  await seedInvoices(db)

  return createApp({
    access,
    users: accounts,
    storagePath,
    database,
    plugins: [Signatures.make({
      config: {},
      database,
      storagePath,
      viewsRoot: path.join(HERE, 'views'),
      records: invoiceRecords(db),
    }).templates([invoiceTemplate])],
    panels: [Panel.make()
      .id('office')
      .path('office')
      .access('signed-in')
      .resources([invoiceResource(db)])
      .plugin(SignaturePlugin.make().pages(['templates', 'signer', 'my-signatures']))],
  })
}
