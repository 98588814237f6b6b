import { Slot } from '../contracts/slot.ts'
import { SlotDefinition } from '../contracts/slot-definition.ts'
import { isValidTemplateKey } from './template-key.ts'
import { slotFieldsSchema, type SlotFields } from '../contracts/slot-input.ts'
import { TemplateConfigError } from './template-config-error.ts'
import { titleCase } from './title-case.ts'

// Where a slot with no placement starts: a row of boxes along the bottom of page 1, so the
// designer opens with every slot visible and none on top of another.
export const DEFAULT_SLOT = { page: 1, x: 36, y: 72, width: 180, height: 50, gap: 12 }

interface RawSlot { key: unknown; fields: unknown; where: string }

/**
 * Every shape, freely mixed, in one canonical list of SlotDefinition: bare keys, keyed literals,
 * maps, Slot.make() builders and SlotDefinitions, each checked by slotFieldsSchema. Order is the
 * order written (a map's keys in insertion order, a list's items in list order).
 */
export function normalizeSlots(templateKey: string, input: unknown): SlotDefinition[] {
  if (input === undefined || input === null) return []
  const raw: RawSlot[] = []
  if (Array.isArray(input)) {
    input.forEach((entry: unknown, index) => {
      // A builder is the literal it stands for, checked as one.
      const item = entry instanceof Slot ? entry.toJSON() : entry
      if (typeof item === 'string') raw.push({ key: item, fields: {}, where: `slots[${index}]` })
      else if (item instanceof SlotDefinition) raw.push({ key: item.key, fields: fieldsOf(item), where: `slots[${index}]` })
      else if (isObject(item) && typeof item.key === 'string') {
        const { key, ...fields } = item
        raw.push({ key, fields, where: `slots[${index}]` })
      } else if (isObject(item)) {
        for (const [key, fields] of Object.entries(item)) raw.push({ key, fields, where: `slots[${index}].${key}` })
      } else {
        throw new TemplateConfigError(templateKey, `slots[${index}]`, 'expected a slot key, { key, label, required } or { key: { label, required } }')
      }
    })
  } else if (isObject(input)) {
    for (const [key, fields] of Object.entries(input)) raw.push({ key, fields, where: `slots.${key}` })
  } else {
    throw new TemplateConfigError(templateKey, 'slots', 'expected a list or a map of slots')
  }

  const seen = new Set<string>()
  return raw.map((slot, index) => {
    if (!isValidTemplateKey(slot.key)) throw new TemplateConfigError(templateKey, slot.where, `invalid slot key ${JSON.stringify(slot.key)} (use [a-z0-9][a-z0-9._-]*)`)
    if (seen.has(slot.key)) throw new TemplateConfigError(templateKey, slot.where, `duplicate slot key "${slot.key}"`)
    seen.add(slot.key)
    const parsed = slotFieldsSchema.safeParse(slot.fields ?? {})
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!
      const field = [slot.where, ...issue.path.map(String)].join('.')
      throw new TemplateConfigError(templateKey, field, issue.code === 'unrecognized_keys' ? `unknown field(s): ${(issue as { keys: string[] }).keys.join(', ')}` : issue.message)
    }
    return toDefinition(slot.key, parsed.data, index)
  })
}

function toDefinition(key: string, fields: SlotFields, index: number): SlotDefinition {
  return new SlotDefinition({
    key,
    label: fields.label ?? titleCase(key),
    // A signature slot exists to be signed; optional ones say so.
    required: fields.required ?? true,
    defaultPage: fields.page ?? DEFAULT_SLOT.page,
    defaultX: fields.x ?? DEFAULT_SLOT.x + index * (DEFAULT_SLOT.width + DEFAULT_SLOT.gap),
    defaultY: fields.y ?? DEFAULT_SLOT.y,
    defaultWidth: fields.width ?? DEFAULT_SLOT.width,
    defaultHeight: fields.height ?? DEFAULT_SLOT.height,
    ...(fields.signatory === undefined ? {} : { signatory: fields.signatory }),
    ...(fields.role === undefined ? {} : { role: fields.role }),
    ...(fields.order === undefined ? {} : { order: fields.order }),
    ...(fields.signerMaySignOtherSlots === undefined ? {} : { signerMaySignOtherSlots: fields.signerMaySignOtherSlots }),
  })
}

/** A SlotDefinition in the vocabulary of a literal, so it is checked like one. */
function fieldsOf(slot: SlotDefinition): SlotFields {
  const { key: _key, defaultPage: page, defaultX: x, defaultY: y, defaultWidth: width, defaultHeight: height, ...rest } = slot.toJSON()
  return { ...rest, page, x, y, width, height }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}
