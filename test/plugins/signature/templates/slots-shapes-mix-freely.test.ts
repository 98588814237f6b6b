import t from 'tap'
import { normalizeSlots } from '../../../../plugins/signature/templates/normalize-slots.ts'

const slots = normalizeSlots('tpl', [
  'employee',
  { supervisor: { label: 'Boss', required: false }, hr: {} },
  { key: 'witness', label: 'Witness (optional)', required: false, page: 2, x: 10, y: 20, width: 30, height: 40 },
])

t.same(slots.map((s) => [s.key, s.label, s.required]), [
  ['employee', 'Employee', true],
  ['supervisor', 'Boss', false],
  ['hr', 'Hr', true],
  ['witness', 'Witness (optional)', false],
], 'all three shapes in one list, in the order written')
t.same(slots.map((s) => s.defaultPage), [1, 1, 1, 2])

t.throws(() => normalizeSlots('tpl', ['employee', { employee: { label: 'Again' } }]), /PDF template "tpl": slots\[1\]\.employee: duplicate slot key "employee"/,
  'a key repeated across shapes is a duplicate')
