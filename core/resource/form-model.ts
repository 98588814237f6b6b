import type { PublicUser } from '../auth/user-repository.ts'
import type { Resource, ResourceRecord } from './define-resource.ts'

export type FieldErrors = Record<string, string>

/** What a form shows in its fields: the record itself, or what was just sent. */
export type FormValues<R> = R | Readonly<Record<string, unknown>>

/** The edit form's controls with their current values and errors. */
export function formFields<R extends ResourceRecord>(resource: Resource<R>, actor: PublicUser, record: R, values: FormValues<R>, errors: FieldErrors) {
  return resource.form.fields.map((field) => ({
    key: field.key,
    label: field.label,
    type: field.type,
    value: values[field.key] === undefined || values[field.key] === null ? '' : String(values[field.key]),
    error: errors[field.key] ?? null,
    options: field.options ? field.options(actor, record) : null,
    autocomplete: field.autocomplete ?? 'off',
    required: field.required ?? false,
    help: field.help ?? null,
  }))
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
