import t from 'tap'
import { normalizeSlots } from '../../../../plugins/signature/templates/normalize-slots.ts'

const slots = normalizeSlots('tpl', [
  { key: 'zeta', label: 'Last letter', required: false },
  { key: 'alpha', label: 'First letter', required: true },
  { key: 'mu' },
])

t.same(slots.map((s) => s.key), ['zeta', 'alpha', 'mu'], 'the list fixes the order (not sorted)')
t.same(slots.map((s) => s.label), ['Last letter', 'First letter', 'Mu'])
t.same(slots.map((s) => s.required), [false, true, true])
