import type { Policy } from '../access/policy.ts'
import type { PublicUser } from '../auth/user-repository.ts'
import { isAppError } from '../http/errors.ts'
import type { FieldOption, FormField, Resource, ResourceRecord } from './define-resource.ts'
import type { FieldErrors, RelationOptions } from './form-model.ts'

/** How many records a relationship select offers at once; the search narrows them. */
export const RELATION_OPTIONS = 20

type RelationshipField<R> = FormField<R> & { relationship: NonNullable<FormField<R>['relationship']> }

export function relationshipFields<R extends ResourceRecord>(resource: Resource<R>): RelationshipField<R>[] {
  return resource.form.fields.filter((field): field is RelationshipField<R> => field.type === 'relationship' && field.relationship !== undefined)
}

/**
 * The records of the related resource the actor may see, as options: its view permission (no
 * options without it) and its view rule for each record, the same check its own list makes.
 * The current value is kept among them even when the search leaves it out.
 */
export async function relatedOptions<R extends ResourceRecord>(policy: Policy, field: RelationshipField<R>, actor: PublicUser, current: unknown, search?: string): Promise<FieldOption[]> {
  return field.relationship.resource.open(async (related) => {
    const view = related.actions.view
    if (!policy.can(actor.role, view.permission)) return []
    const allowed = (record: ResourceRecord) => view.rule?.allows(actor, record as never) ?? true
    const page = await related.source.list(actor, {
      page: 1, perPage: RELATION_OPTIONS, search: search?.trim() || undefined, searchFields: related.searchFields,
      sort: related.order(related.defaultSort), filters: {},
    })
    const options = page.data.filter(allowed).map((record) => ({ value: record.id, label: related.title(record) }))
    if (typeof current === 'string' && current !== '' && !options.some((o) => o.value === current)) {
      const record = await related.source.get(actor, current).catch(() => null)
      if (record && allowed(record)) options.unshift({ value: record.id, label: related.title(record) })
    }
    return options
  })
}

/** The options of every relationship field of a form, for the values it shows. */
export async function relationOptions<R extends ResourceRecord>(policy: Policy, resource: Resource<R>, actor: PublicUser, values: Readonly<Record<string, unknown>>): Promise<RelationOptions> {
  const options: RelationOptions = {}
  for (const field of relationshipFields(resource)) options[field.key] = await relatedOptions(policy, field, actor, values[field.key])
  return options
}

/**
 * A chosen record must be one the actor could have been offered: it exists, and the related
 * resource's view permission and rule allow it. Otherwise the field says so (422), nothing is
 * written — a forged id is refused like a mistyped one.
 */
export async function relationErrors<R extends ResourceRecord>(policy: Policy, resource: Resource<R>, actor: PublicUser, data: Readonly<Record<string, unknown>>): Promise<FieldErrors> {
  const errors: FieldErrors = {}
  for (const field of relationshipFields(resource)) {
    const value = data[field.key]
    if (value === undefined || value === null || value === '') continue
    const ok = await field.relationship.resource.open(async (related) => {
      if (typeof value !== 'string' || !policy.can(actor.role, related.actions.view.permission)) return false
      try {
        const record = await related.source.get(actor, value)
        return related.actions.view.rule?.allows(actor, record) ?? true
      } catch (error) {
        if (isAppError(error) && [403, 404].includes(error.statusCode)) return false
        throw error
      }
    })
    if (!ok) errors[field.key] = `Choose a ${field.label.toLowerCase()} from the list`
  }
  return errors
}
