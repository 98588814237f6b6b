import t from 'tap'
import { SlotDefinition } from '../../../../plugins/signature/contracts/slot-definition.ts'
import { normalizeSlots } from '../../../../plugins/signature/templates/normalize-slots.ts'

const [slot] = normalizeSlots('tpl', { employee: { page: 2, x: 72.5, y: 90, width: 210, height: 48, signatory: 'employee_id', role: 'employee', order: 1 } })

t.ok(slot instanceof SlotDefinition)
t.same(slot!.toJSON(), {
  key: 'employee', label: 'Employee', required: true,
  defaultPage: 2, defaultX: 72.5, defaultY: 90, defaultWidth: 210, defaultHeight: 48,
  signatory: 'employee_id', role: 'employee', order: 1,
}, 'the initial placement becomes the defaults; the person binding is kept')

t.ok(Object.isFrozen(slot), 'a SlotDefinition is a readonly value object')
t.throws(() => { (slot as { defaultX: number }).defaultX = 0 }, TypeError, 'assignment fails in strict mode')
const moved = slot!.with({ defaultX: 1 })
t.equal(moved.defaultX, 1)
t.equal(slot!.defaultX, 72.5, 'with() copies; the original is unchanged')

const [plain] = normalizeSlots('tpl', ['witness'])
t.notOk('signatory' in plain!.toJSON(), 'no binding unless declared')
