// Issue 16: the slot config, the designer's save and /api/sign + finalize each had their own schema
// of a box. One Placement schema now refuses everything any of them refused.
import t from 'tap'
import { placementSchema, type Placement } from '../../../../plugins/signature/contracts/index.ts'
import { placementFor } from '../../../../plugins/signature/contracts/placement.ts'
import { slotPlacementBody } from '../../../../plugins/signature/designer/slot-placement.ts'
import { boxSchema } from '../../../../plugins/signature/signing/placements.ts'
import { SlotDefinition } from '../../../../plugins/signature/contracts/slot-definition.ts'

const GOOD: Placement = { page: 1, x: 50, y: 60, width: 200, height: 40 }

const refused: Array<[string, unknown, string]> = [
  ['page 0', { ...GOOD, page: 0 }, 'page'],
  ['a fractional page', { ...GOOD, page: 1.5 }, 'page'],
  ['a page past 10,000', { ...GOOD, page: 10_001 }, 'page'],
  ['negative x', { ...GOOD, x: -1 }, 'x'],
  ['negative y', { ...GOOD, y: -0.5 }, 'y'],
  ['x past 14,400 pt', { ...GOOD, x: 14_401 }, 'x'],
  ['y not finite', { ...GOOD, y: Infinity }, 'y'],
  ['zero width', { ...GOOD, width: 0 }, 'width'],
  ['negative height', { ...GOOD, height: -10 }, 'height'],
  ['a height past 14,400 pt', { ...GOOD, height: 14_401 }, 'height'],
  ['NaN width', { ...GOOD, width: NaN }, 'width'],
  ['a string for a number', { ...GOOD, x: '50' }, 'x'],
  ['a missing key', { page: 1, x: 1, y: 1, width: 10 }, 'height'],
]

t.test('the one schema refuses each bad box, naming the field', async (t) => {
  t.same(placementSchema.parse(GOOD), GOOD)
  for (const [what, input, field] of refused) {
    const result = placementSchema.safeParse(input)
    t.notOk(result.success, what)
    t.ok(result.error?.issues.some((issue) => issue.path[0] === field), `${what}: names ${field}`)
  }
  const unknown = placementSchema.safeParse({ ...GOOD, rotate: 90 })
  t.equal(unknown.error?.issues[0]?.code, 'unrecognized_keys', 'an unknown key')
})

t.test('the designer\'s save and /api/sign use it, not copies', async (t) => {
  for (const [what, input] of refused) {
    t.notOk(slotPlacementBody.safeParse(input).success, `designer: ${what}`)
    t.notOk(boxSchema.safeParse(input).success, `/api/sign: ${what}`)
  }
  t.same(Object.keys(slotPlacementBody.shape), Object.keys(placementSchema.shape))
  t.same(Object.keys(boxSchema.shape), Object.keys(placementSchema.shape))
})

t.test('a slot\'s placement: the saved row wins, else the slot\'s default', async (t) => {
  const slot = new SlotDefinition({ key: 'a', label: 'A', required: true, defaultPage: 2, defaultX: 10, defaultY: 20, defaultWidth: 30, defaultHeight: 40 })
  t.same(slot.placement, { page: 2, x: 10, y: 20, width: 30, height: 40 }, 'SlotDefinition.placement is its defaults')
  t.ok(Object.isFrozen(slot.placement), 'as immutable as the slot')
  t.same(placementFor(slot, null), slot.placement)
  const row = { templateKey: 't', slotKey: 'a', page: 1, x: 1, y: 2, width: 3, height: 4, createdAt: 'c', updatedAt: 'u' }
  t.same(placementFor(slot, row), { page: 1, x: 1, y: 2, width: 3, height: 4 }, 'only the five numbers of the row')
})
