import path from 'node:path'
import { fileURLToPath } from 'node:url'
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import type { Policy } from '../access/policy.ts'
import type { PublicUser } from '../auth/user-repository.ts'
import { requireUser } from '../auth/require-user.ts'
import { ERR_VALIDATION, isAppError } from '../http/errors.ts'
import type { PanelContext, PanelPlugin } from '../panel/panel-plugin.ts'
import { navigate, wantsFragment } from '../views/htmx.ts'
import { setNotice } from '../views/notice.ts'
import { VIEW_FILES } from '../views/view-files.ts'
import type { RelationList, Resource, ResourceAction, ResourceRecord } from './define-resource.ts'
import { authorizeAction, authorizedRecord } from './authorize-action.ts'
import { bulkIdsFrom } from './bulk-ids.ts'
import { fieldErrors, formFields, refusedField, type FieldErrors, type FormValues } from './form-model.ts'
import { rememberingQueryParser } from '../http/query-parser.ts'
import { listStateParser, sourceFilters } from './list-state.ts'
import { filterControls } from './filter-controls.ts'
import { relationErrors, relationOptions, relationshipFields } from './relationship-field.ts'
import { mountRelationOptionsRoute } from './relation-options-route.ts'
import { mountBulkActionRoutes, mountRecordActionRoutes, recordActionButtons } from './custom-action-routes.ts'
import { relationSections } from './relation-lists.ts'
import { badgeClass, columnText, mayUse, tableModel, type Urls } from './table-model.ts'

const VIEWS = path.join(path.dirname(fileURLToPath(import.meta.url)), 'views')
const VIEW = {
  list: path.join(VIEWS, 'list.eta'),
  table: path.join(VIEWS, 'table.eta'),
  record: path.join(VIEWS, 'record.eta'),
  recordRegion: path.join(VIEWS, 'record-region.eta'),
  confirmDelete: path.join(VIEWS, 'confirm-delete.eta'),
  create: path.join(VIEWS, 'create.eta'),
  createForm: path.join(VIEWS, 'create-form.eta'),
}

interface IdParams { id: string }

function pathOf(url: string | string[] | undefined): string | undefined {
  if (typeof url !== 'string') return undefined
  try {
    return new URL(url).pathname
  } catch {
    return undefined
  }
}

/**
 * A resource mounted through the panel plugin contract: navigation in register(), the list and
 * record routes in boot(), and the routes of each action the resource declares (edit: update;
 * delete: confirm-delete and delete; create; bulkDelete); an undeclared action has no route. Every
 * route checks its action's permission, and its rule for the record, before calling the source
 * (authorize-action.ts). Route names:
 * resources.<slug>.index | .view | .update | .confirm-delete | .delete | .create | .store |
 * .confirm-bulk-delete | .bulk-delete
 */
export function resourcePlugin<R extends ResourceRecord>(resource: Resource<R>): PanelPlugin {
  const name = (action: string) => `resources.${resource.slug}.${action}`
  return {
    id: `resource:${resource.slug}`,
    register(panel) {
      panel.navigationItem({ label: resource.label, url: `/${panel.path}/${resource.slug}`, permission: resource.actions.view.permission, group: resource.navigationGroup })
    },
    boot(panel, app) {
      mountResourceRoutes(resource, panel, app, name)
    },
  }
}

function mountResourceRoutes<R extends ResourceRecord>(resource: Resource<R>, panel: PanelContext, app: FastifyInstance, name: (action: string) => string) {
  const policy: Policy = app.policy
  const base = `/${resource.slug}`
  // A table asks for two URLs per row: the route names are built once, not per call.
  const recordRoute = name('view')
  const confirmDeleteRoute = name('confirm-delete')
  const urls: Urls = {
    list: `/${panel.path}/${resource.slug}`,
    record: (id) => panel.url(recordRoute, { id }),
    confirmDelete: (id) => panel.url(confirmDeleteRoute, { id }),
    confirmBulkDelete: `/${panel.path}/${resource.slug}/bulk-delete`,
    recordAction: (action, id) => panel.url(name(`action.${action}`), { id }),
    bulkAction: (action) => `/${panel.path}/${resource.slug}/bulk/${action}`,
  }
  const actorOf = (request: FastifyRequest): PublicUser => requireUser(request.user)
  const canFor = (actor: PublicUser) => (permission: string) => policy.can(actor.role, permission)
  // Built once at boot, not per request.
  const listStateOf = rememberingQueryParser(listStateParser(resource))
  const optionsUrl = (key: string) => panel.url(name('field-options'), { field: key })
  const searchPlaceholder = `Search by ${resource.searchFields.map((key) => resource.columns.find((c) => c.key === key)?.label.toLowerCase() ?? key).join(' or ')}`

  const { view, edit, delete: remove } = resource.actions

  app.get(base, { config: { name: name('index') } }, async (request, reply) => {
    // Every request, a partial one too: the list is the view permission's (its rule is per record:
    // a row it refuses has no link, and its page answers 403).
    const actor = authorizeAction(policy, request.user, view)
    const state = listStateOf(request)
    const result = await resource.source.list(actor, {
      page: state.page, perPage: state.perPage, search: state.search || undefined,
      searchFields: resource.searchFields, sort: resource.order(state.sort),
      ...sourceFilters(resource, state),
    })
    const table = tableModel({ resource, state, rows: result.data, total: result.total, estimated: result.estimated, urls, actor, can: canFor(actor) })
    if (wantsFragment(request)) return reply.fragment(VIEW.table, { table })
    const create = resource.actions.create
    return reply.page(VIEW.list, {
      table, state, listUrl: urls.list,
      searchPlaceholder,
      resourceLabel: resource.label,
      recordLabel: resource.recordLabel,
      filters: filterControls(resource, state),
      perPageOptions: resource.perPageOptions,
      createHref: create && canFor(actor)(create.permission) ? panel.url(name('create')) : null,
    }, { title: resource.label })
  })

  const relations = [...resource.relations, ...(panel.relationListsOf(resource.slug))] as RelationList<R>[]
  const editRoute = name('edit')
  const renderRecord = async (request: FastifyRequest, reply: FastifyReply, record: R, extra: RecordExtra<R> = {}) => {
    const actor = actorOf(request)
    const can = canFor(actor)
    const editable = mayUse(can, actor, resource.actions.edit, record)
    const values = (extra.values ?? record) as Readonly<Record<string, unknown>>
    // With a view page, GET /:id only shows and GET /:id/edit only edits; without, one page does both.
    const editing = extra.editing === true
    const showForm = editable && (resource.viewPage !== true || editing)
    const model = {
      title: resource.title(record),
      url: editing ? panel.url(editRoute, { id: record.id }) : urls.record(record.id),
      listUrl: urls.list,
      recordUrl: urls.record(record.id),
      editing,
      resourceLabel: resource.label,
      details: editing ? null : resource.columns.map((column) => {
        const text = columnText(column, record)
        return { label: column.label, text, badge: badgeClass(column, text) }
      }),
      form: showForm
        ? { action: panel.url(name('update'), { id: record.id }), fields: formFields(resource, actor, record, values, extra.errors ?? {}, await relationOptions(policy, resource, actor, values), optionsUrl) }
        : null,
      readOnlyNote: resource.viewPage !== true && !editable,
      editHref: resource.viewPage === true && editable && !editing ? panel.url(editRoute, { id: record.id }) : null,
      deleteHref: mayUse(can, actor, resource.actions.delete, record) ? urls.confirmDelete(record.id) : null,
      actions: editing ? [] : recordActionButtons(resource, actor, can, record, urls),
      relations: editing ? [] : await relationSections(relations, actor, can, record),
      flash: extra.flash ?? null,
      recordLabel: resource.recordLabel,
    }
    if (wantsFragment(request)) return reply.fragment(VIEW.recordRegion, { record: model, oob: true })
    return reply.page(VIEW.record, { record: model }, { title: editing ? `Edit ${model.title}` : model.title })
  }

  app.get<{ Params: IdParams }>(`${base}/:id`, { config: { name: name('view') } }, async (request, reply) => {
    const { record } = await authorizedRecord(policy, request.user, view, resource.source, request.params.id)
    return renderRecord(request, reply, record)
  })

  if (edit) mountUpdateRoute(resource, edit, app, name, renderRecord, urls)
  if (edit && resource.viewPage === true) {
    // Static segment after the id: the edit page, checked as the edit action (permission, then rule).
    app.get<{ Params: IdParams }>(`${base}/:id/edit`, { config: { name: editRoute } }, async (request, reply) => {
      const { record } = await authorizedRecord(policy, request.user, edit, resource.source, request.params.id)
      return renderRecord(request, reply, record, { editing: true })
    })
  }
  if (relationshipFields(resource).length > 0) mountRelationOptionsRoute(resource, app, name)
  if (resource.recordActions.length > 0) mountRecordActionRoutes(resource, app, name)
  if (resource.bulkActions.length > 0) mountBulkActionRoutes(resource, app, name)
  if (remove) mountDeleteRoutes(resource, remove, panel, app, name, urls)
  if (resource.actions.create) mountCreateRoutes(resource, panel, app, name, urls)
  if (resource.actions.bulkDelete) mountBulkDeleteRoutes(resource, resource.actions.bulkDelete, app, name, urls)
}

interface RecordExtra<R> { values?: FormValues<R>; errors?: FieldErrors; flash?: { kind: string; message: string }; editing?: boolean }
type RenderRecord<R> = (request: FastifyRequest, reply: FastifyReply, record: R, extra?: RecordExtra<R>) => Promise<FastifyReply>

/** The edit form's write (POST <base>/:id): the permission and rule first, then the form's allow-list. */
function mountUpdateRoute<R extends ResourceRecord>(resource: Resource<R>, action: ResourceAction<R>, app: FastifyInstance, name: (action: string) => string, renderRecord: RenderRecord<R>, urls: Urls) {
  // With a view page the form lives on the edit page: its errors are shown there, a save goes back to the view.
  const editing = resource.viewPage === true
  const policy: Policy = app.policy
  const update = resource.source.update!.bind(resource.source)
  app.post<{ Params: IdParams }>(`/${resource.slug}/:id`, { config: { name: name('update') } }, async (request, reply) => {
    const { actor, record: current } = await authorizedRecord(policy, request.user, action, resource.source, request.params.id)
    const body = (request.body ?? {}) as Record<string, unknown>
    const parsed = resource.form.schema.safeParse(body)
    if (!parsed.success) {
      const { errors, unknown } = fieldErrors(parsed.error.issues)
      // Only a forged request sends a field the form does not have: refuse it, write nothing.
      if (unknown.length > 0) throw ERR_VALIDATION(`body: unknown field(s): ${unknown.join(', ')}`)
      reply.code(422)
      return renderRecord(request, reply, current, { values: body, errors, editing, flash: { kind: 'error', message: 'Please correct the fields marked below.' } })
    }
    const related = await relationErrors(policy, resource, actor, parsed.data)
    if (Object.keys(related).length > 0) {
      reply.code(422)
      return renderRecord(request, reply, current, { values: body, errors: related, editing, flash: { kind: 'error', message: 'Please correct the fields marked below.' } })
    }
    try {
      const updated = await update(actor, request.params.id, parsed.data)
      if (editing) {
        setNotice(request, 'Saved.')
        return navigate(request, reply, urls.record(updated.id))
      }
      return renderRecord(request, reply, updated, { flash: { kind: 'success', message: 'Saved.' } })
    } catch (error) {
      // A conflict (e-mail taken) or a rule of the source is shown on the form; 403/404 go to the error page.
      if (!isAppError(error) || ![400, 409, 422].includes(error.statusCode)) throw error
      reply.code(422)
      // A source that names the field (details.field: the e-mail of a conflict) gets the message next
      // to it, marked invalid, like any other field error.
      const field = refusedField(resource, error.details)
      const errors = field ? { [field]: error.message } : undefined
      return renderRecord(request, reply, current, { values: body, editing, ...(errors ? { errors } : {}), flash: { kind: 'error', message: errors ? 'Please correct the fields marked below.' : error.message } })
    }
  })
}

/** The delete confirmation (GET <base>/:id/delete) and the delete (DELETE <base>/:id), each checked in full. */
function mountDeleteRoutes<R extends ResourceRecord>(resource: Resource<R>, action: ResourceAction<R>, panel: PanelContext, app: FastifyInstance, name: (action: string) => string, urls: Urls) {
  const policy: Policy = app.policy
  const remove = resource.source.remove!.bind(resource.source)
  const base = `/${resource.slug}`
  app.get<{ Params: IdParams }>(`${base}/:id/delete`, { config: { name: name('confirm-delete') } }, async (request, reply) => {
    const { record } = await authorizedRecord(policy, request.user, action, resource.source, request.params.id)
    const confirm = {
      title: `Delete ${resource.title(record)}?`,
      message: `This ${resource.recordLabel} will be removed. This cannot be undone.`,
      deleteUrl: panel.url(name('delete'), { id: record.id }),
      cancelHref: urls.list,
    }
    if (wantsFragment(request)) return reply.fragment(VIEW.confirmDelete, { confirm })
    return reply.page(VIEW.confirmDelete, { confirm, standalone: true }, { title: confirm.title })
  })

  app.delete<{ Params: IdParams }>(`${base}/:id`, { config: { name: name('delete') } }, async (request, reply) => {
    const { actor, record } = await authorizedRecord(policy, request.user, action, resource.source, request.params.id)
    await remove(actor, request.params.id)
    // Tell the page: the table refreshes itself, the dialog closes (see public/js/dialogs.js).
    reply.header('HX-Trigger', JSON.stringify({ 'resource-changed': { slug: resource.slug }, 'modal-close': true }))
    const message = `Deleted ${resource.title(record)}.`
    // Deleted from its own page: that page is gone, go to the list, which says what happened.
    if (pathOf(request.headers['hx-current-url']) === urls.record(record.id)) {
      setNotice(request, message)
      reply.header('HX-Redirect', urls.list)
    }
    return reply.fragment(VIEW_FILES.flash, { kind: 'success', message })
  })
}

/** The create form (GET <base>/new) and its write (POST <base>); the form's fields are the allow-list. */
function mountCreateRoutes<R extends ResourceRecord>(resource: Resource<R>, panel: PanelContext, app: FastifyInstance, name: (action: string) => string, urls: Urls) {
  const policy: Policy = app.policy
  const action = resource.actions.create!
  const create = resource.source.create!.bind(resource.source)
  const base = `/${resource.slug}`
  const formAction = `/${panel.path}/${resource.slug}`

  const optionsUrl = (key: string) => panel.url(name('field-options'), { field: key })
  const render = async (request: FastifyRequest, reply: FastifyReply, values: Record<string, unknown>, errors: FieldErrors, flash: { kind: string; message: string } | null) => {
    const actor = requireUser(request.user)
    const model = {
      action: formAction, listUrl: urls.list, resourceLabel: resource.label, recordLabel: resource.recordLabel, flash,
      fields: formFields(resource, actor, null, values, errors, await relationOptions(policy, resource, actor, values), optionsUrl),
    }
    if (wantsFragment(request)) return reply.fragment(VIEW.createForm, { create: model })
    return reply.page(VIEW.create, { create: model }, { title: `New ${resource.recordLabel}` })
  }

  // Static segment: wins over /:id, so a record whose id is "new" is reached by the API only.
  app.get(`${base}/new`, { config: { name: name('create') } }, async (request, reply) => {
    authorizeAction(policy, request.user, action)
    return render(request, reply, {}, {}, null)
  })

  app.post(base, { config: { name: name('store') } }, async (request, reply) => {
    const actor = authorizeAction(policy, request.user, action)
    const body = (request.body ?? {}) as Record<string, unknown>
    const parsed = resource.form.createSchema.safeParse(body)
    if (!parsed.success) {
      const { errors, unknown } = fieldErrors(parsed.error.issues)
      if (unknown.length > 0) throw ERR_VALIDATION(`body: unknown field(s): ${unknown.join(', ')}`)
      reply.code(422)
      return render(request, reply, body, errors, { kind: 'error', message: 'Please correct the fields marked below.' })
    }
    const related = await relationErrors(policy, resource, actor, parsed.data)
    if (Object.keys(related).length > 0) {
      reply.code(422)
      return render(request, reply, body, related, { kind: 'error', message: 'Please correct the fields marked below.' })
    }
    try {
      const record = await create(actor, parsed.data)
      setNotice(request, `Created ${resource.title(record)}.`)
      return navigate(request, reply, urls.record(record.id))
    } catch (error) {
      if (!isAppError(error) || ![400, 409, 422].includes(error.statusCode)) throw error
      reply.code(422)
      const field = refusedField(resource, error.details)
      const errors = field ? { [field]: error.message } : {}
      return render(request, reply, body, errors, { kind: 'error', message: field ? 'Please correct the fields marked below.' : error.message })
    }
  })
}

/**
 * Bulk delete: a confirmation naming the count (GET <base>/bulk-delete?ids=..) and the write
 * (POST <base>/bulk-delete, ids in the form body). Every id is loaded and checked with the same
 * permission and rule as the single delete before anything is removed: one unknown or refused id
 * refuses the whole request and nothing is deleted.
 */
function mountBulkDeleteRoutes<R extends ResourceRecord>(resource: Resource<R>, action: NonNullable<Resource<R>['actions']['bulkDelete']>, app: FastifyInstance, name: (action: string) => string, urls: Urls) {
  const policy: Policy = app.policy
  const route = `/${resource.slug}/bulk-delete`
  const plural = resource.label.toLowerCase()
  const counted = (n: number) => `${n} ${n === 1 ? resource.recordLabel : plural}`

  const checked = async (request: FastifyRequest, ids: string[]) => {
    const actor = authorizeAction(policy, request.user, action)
    const records: R[] = []
    for (const id of ids) records.push((await authorizedRecord(policy, actor, action, resource.source, id)).record)
    return { actor, records }
  }

  app.get(route, { config: { name: name('confirm-bulk-delete') } }, async (request, reply) => {
    const ids = bulkIdsFrom(request.query, 'query')
    const { records } = await checked(request, ids)
    const names = records.slice(0, 5).map((record) => resource.title(record)).join(', ')
    const more = records.length > 5 ? ` and ${records.length - 5} more` : ''
    const confirm = {
      title: `Delete ${counted(records.length)}?`,
      message: `${names}${more} will be removed. This cannot be undone.`,
      deleteUrl: urls.confirmBulkDelete,
      cancelHref: urls.list,
      ids,
      confirmLabel: `Delete ${counted(records.length)}`,
    }
    if (wantsFragment(request)) return reply.fragment(VIEW.confirmDelete, { confirm })
    return reply.page(VIEW.confirmDelete, { confirm, standalone: true }, { title: confirm.title })
  })

  app.post(route, { config: { name: name('bulk-delete') } }, async (request, reply) => {
    const ids = bulkIdsFrom(request.body, 'body')
    const { actor } = await checked(request, ids)
    // removeMany checks every id again (the source's own guard) and deletes all or none: a record
    // changed or deleted meanwhile refuses the request without half of it done.
    await resource.source.removeMany!(actor, ids)
    reply.header('HX-Trigger', JSON.stringify({ 'resource-changed': { slug: resource.slug }, 'modal-close': true }))
    return reply.fragment(VIEW_FILES.flash, { kind: 'success', message: `Deleted ${counted(ids.length)}.` })
  })
}
