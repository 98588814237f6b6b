import t from 'tap'
import { normalizeSlots } from '../../../../plugins/signature/templates/normalize-slots.ts'

const slots = normalizeSlots('tpl', ['employee', 'line-manager', 'hr_officer'])

t.same(slots.map((s) => s.key), ['employee', 'line-manager', 'hr_officer'], 'keys in the order written')
t.same(slots.map((s) => s.label), ['Employee', 'Line Manager', 'Hr Officer'], 'labels are the title-cased keys')
t.ok(slots.every((s) => s.required), 'a slot is required unless it says otherwise')
t.ok(slots.every((s) => s.defaultPage === 1 && s.defaultWidth > 0 && s.defaultHeight > 0), 'every slot has a usable default placement')
const xs = slots.map((s) => s.defaultX)
t.ok(xs[0]! + slots[0]!.defaultWidth <= xs[1]! && xs[1]! + slots[1]!.defaultWidth <= xs[2]!, 'default boxes do not overlap')
