import type { FastifyInstance } from 'fastify'
import type { Policy } from '../access/policy.ts'
import type { PublicUser } from '../auth/user-repository.ts'
import { VIEW_FILES } from '../views/view-files.ts'
import { authorizeAction, authorizedRecord } from './authorize-action.ts'
import { bulkIdsFrom } from './bulk-ids.ts'
import type { BulkAction, RecordAction, Resource, ResourceRecord } from './define-resource.ts'
import type { Urls } from './table-model.ts'

export interface ActionButton {
  name: string
  label: string
  url: string
  confirm: { title: string; message: string; confirmLabel: string } | null
}

const confirmOf = (action: Pick<RecordAction<unknown>, 'confirm' | 'label'>) =>
  action.confirm ? { title: action.confirm.title, message: action.confirm.message ?? '', confirmLabel: action.confirm.confirmLabel ?? action.label } : null

/** The record actions the actor may use on this record: the same permission and rule the route checks. */
export function recordActionButtons<R extends ResourceRecord>(resource: Resource<R>, actor: PublicUser, can: (permission: string) => boolean, record: R, urls: Pick<Urls, 'recordAction'>): ActionButton[] {
  return resource.recordActions
    .filter((action) => can(action.permission) && (action.rule?.allows(actor, record) ?? true))
    .map((action) => ({ name: action.name, label: action.label, url: urls.recordAction(action.name, record.id), confirm: confirmOf(action) }))
}

/** The bulk actions whose permission the actor holds (each id is checked again by the route). */
export function bulkActionButtons<R extends ResourceRecord>(resource: Resource<R>, can: (permission: string) => boolean, urls: Pick<Urls, 'bulkAction'>): ActionButton[] {
  return resource.bulkActions
    .filter((action) => can(action.permission))
    .map((action) => ({ name: action.name, label: action.label, url: urls.bulkAction(action.name), confirm: confirmOf(action) }))
}

// The list refreshes its table, a record's page its details (record-changed), the dialog closes.
const changed = (slug: string) => JSON.stringify({ 'resource-changed': { slug }, 'record-changed': { slug }, 'modal-close': true })

/**
 * One route per declared record action (POST <base>/:id/actions/<name>): its permission, then its
 * rule for the stored record, before handle() is called. An action not declared has no route.
 */
export function mountRecordActionRoutes<R extends ResourceRecord>(resource: Resource<R>, app: FastifyInstance, name: (action: string) => string) {
  const policy: Policy = app.policy
  for (const action of resource.recordActions) {
    app.post<{ Params: { id: string } }>(`/${resource.slug}/:id/actions/${action.name}`, { config: { name: name(`action.${action.name}`) } }, async (request, reply) => {
      const { actor, record } = await authorizedRecord(policy, request.user, action, resource.source, request.params.id)
      const message = await action.handle(actor, record)
      reply.header('HX-Trigger', changed(resource.slug))
      return reply.fragment(VIEW_FILES.flash, { kind: 'success', message: message || `${action.label}: done.` })
    })
  }
}

/**
 * One route per declared bulk action (POST <base>/bulk/<name>, ids in the body): every id is
 * loaded and checked (permission, rule) before handle() gets the records; one refused or unknown
 * id refuses the request and handle() is not called.
 */
export function mountBulkActionRoutes<R extends ResourceRecord>(resource: Resource<R>, app: FastifyInstance, name: (action: string) => string) {
  const policy: Policy = app.policy
  for (const action of resource.bulkActions as readonly BulkAction<R>[]) {
    app.post(`/${resource.slug}/bulk/${action.name}`, { config: { name: name(`bulk.${action.name}`) } }, async (request, reply) => {
      // The permission before anything is read, even the ids.
      const actor = authorizeAction(policy, request.user, action)
      const ids = bulkIdsFrom(request.body, 'body')
      const records: R[] = []
      for (const id of ids) records.push((await authorizedRecord(policy, actor, action, resource.source, id)).record)
      const message = await action.handle(actor, records)
      reply.header('HX-Trigger', changed(resource.slug))
      const counted = `${records.length} ${records.length === 1 ? resource.recordLabel : resource.label.toLowerCase()}`
      return reply.fragment(VIEW_FILES.flash, { kind: 'success', message: message || `${action.label}: ${counted}.` })
    })
  }
}
