// Issue 16, item 2: a slot written as Slot.make(...) in a class and as a literal in config is one
// shape, checked by one schema, failing with one error type.
import t from 'tap'
import { signature } from '../../../../config/signature.ts'
import { Slot, SlotDefinition, type PdfTemplate } from '../../../../plugins/signature/contracts/index.ts'
import { normalizeSlots } from '../../../../plugins/signature/templates/normalize-slots.ts'
import { TemplateConfigError } from '../../../../plugins/signature/templates/template-config-error.ts'
import { makeRegistry } from '../helpers.ts'

const EMPLOYEE = Slot.make('employee').label('Employee').required().at({ page: 1, x: 72, y: 66, width: 240, height: 48 }).signatory('employeeId').role('employee').order(1)

t.test('Slot.make() gives the fields object config writes', async (t) => {
  const [configEmployee] = signature.templates!['daily-time-record']!.slots as unknown[]
  t.same(EMPLOYEE.toJSON(), configEmployee, 'the employee slot of config/signature.ts, field for field')
  const [fromBuilder] = normalizeSlots('dtr', [EMPLOYEE])
  const [fromLiteral] = normalizeSlots('dtr', [configEmployee])
  t.ok(fromBuilder instanceof SlotDefinition)
  t.same(fromBuilder!.toJSON(), fromLiteral!.toJSON(), 'equal SlotDefinitions')
  t.same(fromBuilder!.placement, { page: 1, x: 72, y: 66, width: 240, height: 48 }, 'its placement, as given to at()')
})

t.test('each call returns a new Slot; optional() and signerMaySignOtherSlots() are the literal\'s fields', async (t) => {
  const witness = Slot.make('witness').optional()
  const notary = witness.signerMaySignOtherSlots()
  t.same(witness.toJSON(), { key: 'witness', required: false })
  t.same(notary.toJSON(), { key: 'witness', required: false, signerMaySignOtherSlots: true })
  const [a, b] = normalizeSlots('deed', [Slot.make('a'), 'b'])
  t.same(a!.toJSON(), { ...b!.toJSON(), key: 'a', label: 'A', defaultX: a!.defaultX }, 'a bare builder is a bare key')
})

t.test('a bad slot fails the same way in both vocabularies', async (t) => {
  const cases: Array<[string, Slot, Record<string, unknown>]> = [
    ['page 0', Slot.make('a').at({ page: 0, x: 1, y: 1, width: 50, height: 50 }), { key: 'a', page: 0, x: 1, y: 1, width: 50, height: 50 }],
    ['a box below the minimum size', Slot.make('a').at({ page: 1, x: 1, y: 1, width: 1e-9, height: 50 }), { key: 'a', page: 1, x: 1, y: 1, width: 1e-9, height: 50 }],
    ['negative x', Slot.make('a').at({ page: 1, x: -1, y: 1, width: 50, height: 50 }), { key: 'a', page: 1, x: -1, y: 1, width: 50, height: 50 }],
    ['an empty label', Slot.make('a').label(''), { key: 'a', label: '' }],
    ['a key that is not part of a placement', Slot.make('a').at({ page: 1, x: 1, y: 1, width: 50, height: 50, rotate: 90 } as never), { key: 'a', page: 1, x: 1, y: 1, width: 50, height: 50, rotate: 90 }],
    ['an order of 0', Slot.make('a').order(0), { key: 'a', order: 0 }],
    ['a signatory that is neither a field name nor a function', Slot.make('a').signatory(42 as never), { key: 'a', signatory: 42 }],
    ['an invalid key', Slot.make('A B'), { key: 'A B' }],
  ]
  for (const [what, builder, literal] of cases) {
    const failure = (input: unknown) => { try { normalizeSlots('tpl', [input]); return null } catch (error) { return error as Error } }
    const fromBuilder = failure(builder)
    const fromLiteral = failure(literal)
    t.ok(fromBuilder instanceof TemplateConfigError, `${what}: a TemplateConfigError`)
    t.equal(fromBuilder?.message, fromLiteral?.message, `${what}: the same message (${fromLiteral?.message})`)
  }
})

t.test('a signatory may be a function of the record, in either vocabulary', async (t) => {
  const byFunction = (record: { party: { id: string } }) => record.party.id
  const [built] = normalizeSlots('deed', [Slot.make<{ party: { id: string } }>('party').signatory(byFunction)])
  const [written] = normalizeSlots('deed', [{ key: 'party', signatory: byFunction }])
  t.equal(built!.signatory, byFunction)
  t.equal(written!.signatory, byFunction)
})

t.test('a class template\'s slots() may return builders: the registry normalizes them once, at registration', async (t) => {
  const { registry } = await makeRegistry(t)
  let calls = 0
  class Receipt implements PdfTemplate {
    key() { return 'receipt' }
    label() { return 'Receipt' }
    slots() { calls++; return [Slot.make('customer').at({ page: 1, x: 40, y: 40, width: 200, height: 50 }), { key: 'clerk', required: false }] }
    async renderSample() { return '/dev/null' }
    async renderFor() { return '/dev/null' }
  }
  const registered = registry.register(Receipt)
  t.ok(registered instanceof Receipt, 'the same instance')
  t.equal(registry.get('receipt'), registered)
  const slots = registry.get('receipt').slots()
  t.ok(slots.every((slot) => slot instanceof SlotDefinition), 'SlotDefinitions, whatever slots() declared')
  t.same(slots.map((s) => [s.key, s.required, s.defaultX]), [['customer', true, 40], ['clerk', false, 36 + 192]])
  t.equal(registry.get('receipt').slots(), slots, 'the one normalized list')
  t.equal(calls, 1, 'declared slots are read once')

  class Broken extends Receipt {
    override key() { return 'broken' }
    override slots() { return [Slot.make('customer').at({ page: 1, x: 0, y: 0, width: 2, height: 50 })] }
  }
  t.throws(() => registry.register(Broken), { name: 'TemplateConfigError', message: /PDF template "broken": slots\[0\]\.width: at least 8 pt/ }, 'a bad builder stops the registration')
  t.notOk(registry.has('broken'))
})
