import type { Placement } from './placement.ts'

/** Works out from a record who must sign a slot: a user id, or nothing when nobody in particular. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type SignatoryResolver<R = any> = (record: R) => string | number | null | undefined

// A named region of a template that accepts a signature. Immutable: the same definition is
// shared by every record of the template, so nobody may move it by accident.

export interface SlotDefinitionInit {
  key: string
  label: string
  defaultPage: number
  /** PDF points, y measured from the bottom of the page (the convention of the whole server). */
  defaultX: number
  defaultY: number
  defaultWidth: number
  defaultHeight: number
  required: boolean
  /**
   * Who must sign this slot: the name of the record's field holding their user id (e.g.
   * 'employee_id'), or a function of the record giving it. Absent: anyone allowed to sign the
   * record may fill it.
   */
  signatory?: string | SignatoryResolver
  /** What the signer signs as (e.g. 'employee', 'supervisor'); shown to people, not used for access. */
  role?: string
  /**
   * Position in the signing sequence, 1 first. Slots with the same order may be signed in any
   * order among themselves; a slot without an order may be signed at any time.
   */
  order?: number
  /**
   * Whoever signs this slot may also sign other slots of the same document (e.g. a party who is
   * also allowed to witness). Default false: one person, one slot — nobody both signs as
   * `employee` and witnesses. Two slots may share a signer when either of them allows it.
   */
  signerMaySignOtherSlots?: boolean
}

export class SlotDefinition implements Readonly<SlotDefinitionInit> {
  readonly key: string
  readonly label: string
  readonly defaultPage: number
  readonly defaultX: number
  readonly defaultY: number
  readonly defaultWidth: number
  readonly defaultHeight: number
  readonly required: boolean
  readonly signatory?: string | SignatoryResolver
  readonly role?: string
  readonly order?: number
  readonly signerMaySignOtherSlots: boolean
  /** The defaults as one Placement: where the slot sits until the designer saves a row. */
  readonly placement: Readonly<Placement>

  constructor(init: SlotDefinitionInit) {
    this.key = init.key
    this.label = init.label
    this.defaultPage = init.defaultPage
    this.defaultX = init.defaultX
    this.defaultY = init.defaultY
    this.defaultWidth = init.defaultWidth
    this.defaultHeight = init.defaultHeight
    this.required = init.required
    if (init.signatory !== undefined) this.signatory = init.signatory
    if (init.role !== undefined) this.role = init.role
    if (init.order !== undefined) this.order = init.order
    this.signerMaySignOtherSlots = init.signerMaySignOtherSlots === true
    this.placement = Object.freeze({ page: init.defaultPage, x: init.defaultX, y: init.defaultY, width: init.defaultWidth, height: init.defaultHeight })
    Object.freeze(this)
  }

  /** A copy with some fields changed: the value object is never mutated in place. */
  with(changes: Partial<SlotDefinitionInit>): SlotDefinition {
    return new SlotDefinition({ ...this.toJSON(), ...changes })
  }

  toJSON(): SlotDefinitionInit {
    const { key, label, defaultPage, defaultX, defaultY, defaultWidth, defaultHeight, required, signatory, role, order, signerMaySignOtherSlots } = this
    return {
      key, label, defaultPage, defaultX, defaultY, defaultWidth, defaultHeight, required,
      ...(signatory === undefined ? {} : { signatory }),
      ...(role === undefined ? {} : { role }),
      ...(order === undefined ? {} : { order }),
      ...(signerMaySignOtherSlots ? { signerMaySignOtherSlots } : {}),
    }
  }
}
