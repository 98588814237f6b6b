import t from 'tap'
import { normalizeSlots } from '../../../../plugins/signature/templates/normalize-slots.ts'

const slots = normalizeSlots('tpl', {
  employee: { label: 'Employee signature', required: true },
  witness: { required: false },
  supervisor: {},
})

t.same(slots.map((s) => [s.key, s.label, s.required]), [
  ['employee', 'Employee signature', true],
  ['witness', 'Witness', false],
  ['supervisor', 'Supervisor', true],
], 'map keys become slot keys, in insertion order; missing labels are title-cased')
