import type { Placement } from './placement.ts'
import type { SignatoryResolver } from './slot-definition.ts'
import type { KeyedSlot, SlotFields } from './slot-input.ts'

/**
 * A slot written fluently, in the vocabulary of a config slot:
 * `Slot.make('employee').label('Employee').at({ page: 1, x: 72, y: 66, width: 240, height: 48 }).signatory('employeeId')`
 * gives the same fields as `{ key: 'employee', label: 'Employee', page: 1, x: 72, ... }`. Nothing is
 * checked here: the registry normalizes both through one schema, so both fail the same way.
 * Each call returns a new Slot, so a slot may be shared and varied without changing the original.
 * R is the record's type, for a signatory written as a function.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export class Slot<R = any> {
  readonly key: string
  readonly #fields: Readonly<SlotFields>

  private constructor(key: string, fields: Readonly<SlotFields>) {
    this.key = key
    this.#fields = Object.freeze(fields)
  }

  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  static make<R = any>(key: string): Slot<R> {
    return new Slot<R>(key, {})
  }

  /** Shown to people; defaults to the key in title case. */
  label(label: string): Slot<R> { return this.#with({ label }) }
  /** The default: a signature slot exists to be signed. */
  required(required = true): Slot<R> { return this.#with({ required }) }
  optional(): Slot<R> { return this.required(false) }
  /** Where the slot starts, until the designer saves a placement. */
  at(placement: Placement): Slot<R> {
    // Copied whole: a key that is not part of a Placement is refused by the schema, as in config.
    return this.#with({ ...placement })
  }

  /** Who must sign it: the record's field holding their user id, or a function of the record. */
  signatory(signatory: string | SignatoryResolver<R>): Slot<R> { return this.#with({ signatory: signatory as SignatoryResolver }) }
  /** What the signer signs as; shown to people, not used for access. */
  role(role: string): Slot<R> { return this.#with({ role }) }
  /** Position in the signing sequence, 1 first. */
  order(order: number): Slot<R> { return this.#with({ order }) }
  /** Whoever signs this slot may also sign other slots of the same document. */
  signerMaySignOtherSlots(allowed = true): Slot<R> { return this.#with({ signerMaySignOtherSlots: allowed }) }

  /** The config literal this slot stands for. */
  toJSON(): KeyedSlot {
    return { key: this.key, ...this.#fields }
  }

  #with(fields: SlotFields): Slot<R> {
    return new Slot<R>(this.key, { ...this.#fields, ...fields })
  }
}
