import { isUserSearchField, isUserSortField, USER_SEARCH_FIELDS, defineResource, type Policy, type PublicUser, type UserSearchField } from '../../core/index.ts'
import type { UserService } from './user-service.ts'

export interface UserResourceOptions {
  /** What the search box looks in; name and e-mail unless told. */
  searchFields?: UserSearchField[]
}

/**
 * The People screen, declared. Everything the screen shows or accepts comes from here; every
 * read and write goes through the user service, whose field schemas and rules the screen uses
 * too, so the page and /api/users share one set of checks (decide(), rank, "not your own account").
 */
export function userResource(service: UserService, policy: Policy, options: UserResourceOptions = {}) {
  const { fields } = service.schemas
  const { actions, mayAssignRole } = service.rules
  const roles = policy.roles()
  // Offer only the roles this actor may give; nobody is offered a change of their own role.
  const roleOptions = (actor: PublicUser, record: PublicUser | null) =>
    roles.filter((role) => mayAssignRole.allows(actor, record, role))
      .map((role) => ({ value: role, label: role.charAt(0).toUpperCase() + role.slice(1) }))

  return defineResource<PublicUser>({
    slug: 'users',
    label: 'People',
    recordLabel: 'person',
    title: (user) => user.name,
    columns: [
      { key: 'name', label: 'Name', sortable: true, primary: true },
      { key: 'email', label: 'E-mail', sortable: true },
      { key: 'role', label: 'Role', sortable: true, badge: true },
    ],
    defaultSort: 'name',
    searchFields: options.searchFields ?? [...USER_SEARCH_FIELDS],
    perPage: 10,
    perPageOptions: [10, 25, 50, 100],
    filters: [{ key: 'role', label: 'Role', options: roles.map((role) => ({ value: role, label: role.charAt(0).toUpperCase() + role.slice(1) })) }],
    // The write allow-list of the page: an id, or a password on the edit form's other fields, is refused.
    form: {
      writeOnly: [
        { key: 'password', label: 'Password', type: 'password', on: 'create', required: true, schema: fields.password, help: 'At least 8 characters.' },
        // Sets a new password; the person's sessions end everywhere (the service revokes them).
        { key: 'password', label: 'New password', type: 'password', on: 'edit', schema: fields.password, help: 'Leave empty to keep the current password. A new one signs this person out everywhere.' },
      ],
      fields: [
        { key: 'name', label: 'Name', type: 'text', required: true, autocomplete: 'name', schema: fields.name },
        { key: 'email', label: 'E-mail address', type: 'email', required: true, autocomplete: 'email', schema: fields.email },
        { key: 'role', label: 'Role', type: 'select', required: true, options: roleOptions, schema: fields.role },
      ],
    },
    actions: { view: actions.read, edit: actions.update, delete: actions.delete, create: actions.create, bulkDelete: actions.delete },
    source: {
      list: async (actor, query) => {
        const { field, direction } = query.sort
        const result = await service.list(actor, {
          page: query.page, perPage: query.perPage, search: query.search,
          // The resource's own fields, typed against the user store's: the guards only narrow.
          searchFields: query.searchFields.filter(isUserSearchField),
          sort: isUserSortField(field) ? { field, direction } : undefined,
          ...(query.filters.role ? { role: query.filters.role } : {}),
        })
        return { data: result.data, total: result.meta.total, ...(result.meta.totalIsEstimate ? { estimated: true } : {}) }
      },
      get: (actor, id) => service.get(actor, id),
      update: (actor, id, input) => service.update(actor, id, input),
      remove: (actor, id) => service.remove(actor, id),
      removeMany: (actor, ids) => service.removeMany(actor, ids),
      create: (actor, input) => service.create(actor, input),
    },
  })
}
