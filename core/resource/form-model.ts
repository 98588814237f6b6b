import type { PublicUser } from '../auth/user-repository.ts'
import type { Resource, ResourceRecord } from './define-resource.ts'

export type FieldErrors = Record<string, string>

/** What a form shows in its fields: the record itself, or what was just sent. */
export type FormValues<R> = R | Readonly<Record<string, unknown>>

/**
 * The controls of the edit form (record given) or the create form (record null) with their
 * current values and errors. Write-only fields (a password) are always shown empty.
 */
export function formFields<R extends ResourceRecord>(resource: Resource<R>, actor: PublicUser, record: R | null, values: FormValues<R>, errors: FieldErrors) {
  const on = record ? 'edit' : 'create'
  const shown = values as Readonly<Record<string, unknown>>
  return [
    ...resource.form.fields.map((field) => ({
      key: field.key as string,
      label: field.label,
      type: field.type as string,
      value: shown[field.key] === undefined || shown[field.key] === null ? '' : String(shown[field.key]),
      error: errors[field.key] ?? null,
      options: field.options ? field.options(actor, record) : null,
      autocomplete: field.autocomplete ?? 'off',
      required: field.required ?? false,
      help: field.help ?? null,
    })),
    ...resource.form.writeOnly.filter((field) => field.on === on).map((field) => ({
      key: field.key,
      label: field.label,
      type: field.type as string,
      value: '',
      error: errors[field.key] ?? null,
      options: null,
      autocomplete: field.autocomplete ?? 'new-password',
      required: field.required ?? false,
      help: field.help ?? null,
    })),
  ]
}

/** zod issues -> one message per field (the first); unknown keys are reported apart, they are refused outright. */
export function fieldErrors(issues: ReadonlyArray<{ code: string; path: PropertyKey[]; message: string; keys?: string[] }>) {
  const errors: FieldErrors = {}
  const unknown: string[] = []
  for (const issue of issues) {
    if (issue.code === 'unrecognized_keys') unknown.push(...(issue.keys ?? []))
    const key = issue.path[0]
    if (typeof key === 'string' && errors[key] === undefined) errors[key] = issue.message.charAt(0).toUpperCase() + issue.message.slice(1)
  }
  return { errors, unknown }
}

/** The field a source's refusal names (details.field: the e-mail of a conflict), if the form has it. */
export function refusedField<R extends ResourceRecord>(resource: Resource<R>, details: unknown): string | null {
  const field = (details as { field?: unknown } | undefined)?.field
  if (typeof field !== 'string') return null
  const known = resource.form.fields.some((f) => f.key === field) || resource.form.writeOnly.some((f) => f.key === field)
  return known ? field : null
}
