import type { PublicUser } from '../auth/user-repository.ts'
import type { FieldOption, FormField, Resource, ResourceRecord } from './define-resource.ts'
import { decimalInputText, isTruthy, moneyInputText } from './display-value.ts'

export type FieldErrors = Record<string, string>

/** What a form shows in its fields: the record itself, or what was just sent. */
export type FormValues<R> = R | Readonly<Record<string, unknown>>

/** The value an input of this type shows: what was typed is shown as typed, a stored value in the input's own format. */
function inputText(field: FormField<unknown> | { type: string; currency?: string; scale?: number }, value: unknown): string {
  if (value === undefined || value === null) return ''
  if (typeof value === 'string' && field.type !== 'datetime') return value
  switch (field.type) {
    case 'date': return value instanceof Date ? value.toISOString().slice(0, 10) : String(value)
    case 'datetime': return (value instanceof Date ? value.toISOString() : String(value)).replace(' ', 'T').slice(0, 16)
    case 'money': return moneyInputText(value, field.currency ?? 'EUR')
    case 'decimal': return decimalInputText(value, field.scale ?? 2)
    default: return String(value)
  }
}

/** Offered options of a relationship field, keyed by its key (relationOptions() fetches them for the actor). */
export type RelationOptions = Record<string, FieldOption[]>

/**
 * The controls of the edit form (record given) or the create form (record null) with their
 * current values and errors. Write-only fields (a password) are always shown empty; read-only
 * fields are disabled controls (a browser sends nothing for them, and the server would refuse it).
 */
export function formFields<R extends ResourceRecord>(resource: Resource<R>, actor: PublicUser, record: R | null, values: FormValues<R>, errors: FieldErrors, relations: RelationOptions = {}, optionsUrl?: (key: string) => string) {
  const on = record ? 'edit' : 'create'
  const shown = values as Readonly<Record<string, unknown>>
  return [
    ...resource.form.fields.map((field) => ({
      key: field.key as string,
      label: field.type === 'money' ? `${field.label} (${field.currency})` : field.label,
      type: field.type as string,
      value: inputText(field as FormField<unknown>, shown[field.key]),
      checked: isTruthy(shown[field.key]) || shown[field.key] === 'on',
      error: errors[field.key] ?? null,
      options: field.type === 'relationship' ? relations[field.key] ?? [] : field.options ? field.options(actor, record) : null,
      searchUrl: field.type === 'relationship' && optionsUrl && field.readOnly !== true ? optionsUrl(field.key) : null,
      inputmode: field.type === 'money' || field.type === 'decimal' ? 'decimal' : null,
      readOnly: field.readOnly === true,
      autocomplete: field.autocomplete ?? 'off',
      required: (field.required ?? false) && field.readOnly !== true,
      help: field.help ?? null,
    })),
    ...resource.form.writeOnly.filter((field) => field.on === on).map((field) => ({
      key: field.key,
      label: field.label,
      type: field.type as string,
      value: '',
      checked: false,
      error: errors[field.key] ?? null,
      options: null,
      searchUrl: null,
      inputmode: null,
      readOnly: false,
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
