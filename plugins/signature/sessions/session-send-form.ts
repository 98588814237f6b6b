import type { FastifyInstance, FastifyRequest } from 'fastify'
import type { PublicUser } from '../../../core/auth/user-repository.ts'
import { AppError } from '../../../core/http/errors.ts'
import type { FormBody } from '../../../core/views/form-body.ts'
import type { RegisteredTemplate } from '../contracts/pdf-template.ts'
import type { Signable } from '../contracts/signable.ts'
import { maySeeRecord } from '../signables/record-visibility.ts'
import { signatoriesOf } from '../signables/signatories.ts'

// The "Send for signature" form's model: what it offers (templates, the records the sender may
// see, each slot with its bound signatory or a choice of people) and how its fields become the
// body of POST /api/signing-sessions, whose rules decide. Errors come back to the fields named.

export interface SendFormSlot {
  key: string
  label: string
  required: boolean
  /** The record binds this slot to this person; null: the sender chooses. */
  bound: { id: string; name: string } | null
  /** The chosen person (a form value), '' for nobody. */
  chosen: string
  error: string | null
  /** The API's own words for the error, shown behind "Details". */
  errorDetail?: string | null
}

export interface SendFormModel {
  templates: Array<{ key: string; label: string }>
  template: string
  records: Array<{ id: string; title: string }>
  signable: string
  mode: 'sequential' | 'parallel'
  message: string
  /** YYYY-MM-DD or ''. */
  dueAt: string
  slots: SendFormSlot[]
  people: Array<{ id: string; name: string }>
  errors: { template?: string; signable?: string; dueAt?: string; message?: string; form?: string }
}

const text = (body: FormBody | undefined, key: string): string => {
  const value = body?.[key]
  return (Array.isArray(value) ? value[0] : value)?.trim() ?? ''
}

/** The form for a template (the first one when none is chosen) and, optionally, one record. */
export async function sendFormModel(app: FastifyInstance, user: PublicUser, input: FormBody | undefined): Promise<SendFormModel> {
  const registry = await app.signature.registry.fresh()
  const templates = [...registry.all().values()].map((t) => ({ key: t.key(), label: t.label() }))
  const templateKey = templates.some((t) => t.key === text(input, 'template')) ? text(input, 'template') : templates[0]?.key ?? ''
  const template = templateKey ? registry.get(templateKey) : null
  const visible = template ? (await app.signature.records.forTemplate(templateKey)).filter((r) => maySeeRecord(app.policy, template, r, user)) : []
  const records = visible.map((r) => ({ id: r.getSignableId(), title: r.getSignableTitle() }))
  const signable = records.some((r) => r.id === text(input, 'signable')) ? text(input, 'signable') : ''
  const record = visible.find((r) => r.getSignableId() === signable)
  const people = (await app.users.list({ page: 1, perPage: 500, sort: { field: 'name', direction: 'asc' } })).data.map((u) => ({ id: u.id, name: u.name }))
  return {
    templates,
    template: templateKey,
    records,
    signable,
    mode: text(input, 'mode') === 'parallel' ? 'parallel' : 'sequential',
    message: text(input, 'message'),
    dueAt: text(input, 'dueAt'),
    slots: template ? slotsOf(template, record, people, input) : [],
    people,
    errors: {},
  }
}

function slotsOf(template: RegisteredTemplate, record: Signable | undefined, people: SendFormModel['people'], input: FormBody | undefined): SendFormSlot[] {
  const bound = new Map(record ? signatoriesOf(template, record).map((s) => [s.slot, s.userId]) : [])
  return template.slots().map((slot) => {
    const id = bound.get(slot.key)
    return {
      key: slot.key,
      label: slot.label,
      required: slot.required,
      bound: id ? { id, name: people.find((p) => p.id === id)?.name ?? id } : null,
      chosen: text(input, `signer.${slot.key}`),
      error: null,
    }
  })
}

/** The API body the form stands for: bound slots and chosen people; slots left to nobody are left out. */
export function sessionBodyOf(model: SendFormModel): { body: object; slotAt: string[] } {
  const signers = model.slots
    .filter((s) => s.bound || s.chosen)
    .map((s) => ({ slot: s.key, ...(s.bound ? {} : { user: s.chosen }) }))
  const optional = { ...(model.message ? { message: model.message } : {}), ...(model.dueAt ? { dueAt: model.dueAt } : {}) }
  return { body: { template: model.template, signable: model.signable, mode: model.mode, signers, ...optional }, slotAt: signers.map((s) => s.slot) }
}

/** Puts a refusal of POST /api/signing-sessions next to the fields it is about; false when it is not a form error. */
export function placeErrors(model: SendFormModel, error: unknown, slotAt: string[]): boolean {
  if (!(error instanceof AppError) || error.statusCode >= 500 || error.statusCode === 401 || error.statusCode === 403) return false
  const issues = (error.details as { issues?: string[] } | undefined)?.issues ?? [error.message]
  for (const issue of issues) {
    const indexed = /^signers\.(\d+)\.\w+: (.*)$/.exec(issue)
    const named = /"([^"]+)"/.exec(issue)
    const worded = signerIssueInWords(model, issue)
    const slot = indexed ? model.slots.find((s) => s.key === slotAt[Number(indexed[1])]) : model.slots.find((s) => s.key === named?.[1])
    if (worded) Object.assign(worded.slot, { error: worded.text, errorDetail: issue })
    else if (slot && issue.startsWith('signers')) slot.error = indexed ? indexed[2]! : issue.replace(/^signers: /, '')
    else if (error.code === 'ERR_SIGNABLE_NOT_FOUND') model.errors.signable = 'Choose a record you may see.'
    else if (issue.startsWith('body.dueAt')) model.errors.dueAt = issue.replace(/^body\.dueAt: /, '')
    else if (issue.startsWith('body.message')) model.errors.message = issue.replace(/^body\.message: /, '')
    else model.errors.form = [model.errors.form, issue.replace(/^body\.?\w*: /, '')].filter(Boolean).join(' ')
  }
  return true
}

/**
 * The API's two signer rules (signables/slot-signers.ts), said to the sender in their words, next
 * to the field they chose: people and slots by name and label, not by id and key.
 */
function signerIssueInWords(model: SendFormModel, issue: string): { slot: SendFormSlot; text: string } | null {
  const slotOf = (key: string) => model.slots.find((s) => s.key === key)
  const nameOf = (id: string) => model.people.find((p) => p.id === id)?.name ?? model.slots.find((s) => s.bound?.id === id)?.bound?.name ?? 'This person'
  const both = /^signers: "([^"]+)" may not sign both "([^"]+)" and "([^"]+)"$/.exec(issue)
  if (both) {
    const [a, b] = [slotOf(both[2]!), slotOf(both[3]!)]
    if (!a || !b) return null
    // Next to the slot the sender chose (the other may be the record's own choice).
    const [chosen, other] = b.bound && !a.bound ? [a, b] : [b, a]
    return { slot: chosen, text: `${nameOf(both[1]!)} already signs “${other.label}”, and one person signs one part of this document: choose someone else.` }
  }
  const bound = /^signers: the record binds the slot "([^"]+)" to another user than "([^"]+)"$/.exec(issue)
  const slot = bound ? slotOf(bound[1]!) : undefined
  if (bound && slot) return { slot, text: `The record names who signs “${slot.label}”${slot.bound ? `: ${slot.bound.name}` : ''}; ${nameOf(bound[2]!)} may not sign it.` }
  return null
}

/** The form body of a request, as the send form posts it. */
export function formOf(request: FastifyRequest): FormBody | undefined {
  return request.body && typeof request.body === 'object' ? request.body as FormBody : undefined
}
