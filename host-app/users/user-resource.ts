import type { Policy } from '../../core/access/policy.ts'
import type { PublicUser, UserSortField } from '../../core/auth/user-repository.ts'
import { defineResource } from '../../core/resource/define-resource.ts'
import type { UserService } from './user-service.ts'

/**
 * The People screen, declared. Everything the screen shows or accepts comes from here; every
 * read and write goes through the user service, so the page and /api/users share one set of
 * checks (decide(), rank, "not your own account").
 */
export function userResource(service: UserService, policy: Policy) {
  const roles = policy.roles()
  // Offer only the roles this actor may give; nobody is offered a change of their own role.
  const roleOptions = (actor: PublicUser, record: PublicUser) =>
    (record.id === actor.id ? [record.role] : roles.filter((role) => policy.outranksOrEquals(actor.role, role)))
      .map((role) => ({ value: role, label: role.charAt(0).toUpperCase() + role.slice(1) }))
  const mayManage = (actor: PublicUser, record: PublicUser) => policy.outranksOrEquals(actor.role, record.role)

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
    searchFields: ['name', 'email'],
    perPage: 10,
    form: {
      // The write allow-list of the page: a password or an id sent to this form is refused.
      schema: service.schemas.create.pick({ name: true, email: true, role: true }).strict(),
      fields: [
        { key: 'name', label: 'Name', type: 'text', required: true, autocomplete: 'name' },
        { key: 'email', label: 'E-mail address', type: 'email', required: true, autocomplete: 'email' },
        { key: 'role', label: 'Role', type: 'select', required: true, options: roleOptions },
      ],
    },
    actions: {
      view: { permission: 'users:read' },
      edit: { permission: 'users:update', allowed: mayManage },
      delete: { permission: 'users:delete', allowed: (actor, record) => actor.id !== record.id && mayManage(actor, record) },
    },
    source: {
      list: async (actor, query) => {
        const result = await service.list(actor, {
          page: query.page, perPage: query.perPage, search: query.search,
          sort: { field: query.sort.field as UserSortField, direction: query.sort.direction },
        })
        return { data: result.data, total: result.meta.total }
      },
      get: (actor, id) => service.get(actor, id),
      update: (actor, id, input) => service.update(actor, id, input),
      remove: (actor, id) => service.remove(actor, id),
    },
  })
}
