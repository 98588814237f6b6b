import type { Kysely, Transaction } from 'kysely'
import type { SignatureTables } from '../database/schema.ts'
import type { WebhookEndpointTable } from '../outbox/outbox-tables.ts'

type Db = Kysely<SignatureTables> | Transaction<SignatureTables>

/** Rows of webhook_endpoints. A deleted endpoint keeps its row, so its delivery log stays readable. */
export class EndpointRepository {
  constructor(readonly db: Kysely<SignatureTables>) {}

  insert(row: WebhookEndpointTable) {
    return this.db.insertInto('webhook_endpoints').values(row).execute()
  }

  listActive() {
    return this.db.selectFrom('webhook_endpoints').selectAll().where('status', '=', 'active').orderBy('created_at').orderBy('id').execute()
  }

  find(id: string, db: Db = this.db) {
    return db.selectFrom('webhook_endpoints').selectAll().where('id', '=', id).executeTakeFirst()
  }

  async markDeleted(id: string, at: string): Promise<boolean> {
    const result = await this.db.updateTable('webhook_endpoints').set({ status: 'deleted', updated_at: at })
      .where('id', '=', id).where('status', '=', 'active').executeTakeFirst()
    return Number(result.numUpdatedRows) === 1
  }

  /** Inside the transaction of the change: who is subscribed at the moment the event happens. */
  async subscribedTo(tx: Db, type: string): Promise<WebhookEndpointTable[]> {
    const active = await tx.selectFrom('webhook_endpoints').selectAll().where('status', '=', 'active').orderBy('created_at').orderBy('id').execute()
    return active.filter((e) => (JSON.parse(e.events) as string[]).includes(type))
  }
}
