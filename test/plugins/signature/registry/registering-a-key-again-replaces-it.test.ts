import t from 'tap'
import { SlotDefinition } from '../../../../plugins/signature/contracts/slot-definition.ts'
import type { PdfTemplate, TemplateContext } from '../../../../plugins/signature/contracts/pdf-template.ts'
import { makeRegistry } from '../helpers.ts'

class Receipt implements PdfTemplate {
  constructor(readonly context?: TemplateContext) {}
  key() { return 'receipt' }
  label() { return 'Receipt (class)' }
  slots() { return [new SlotDefinition({ key: 'customer', label: 'Customer', defaultPage: 1, defaultX: 0, defaultY: 0, defaultWidth: 10, defaultHeight: 10, required: true })] }
  async renderSample() { return '/dev/null' }
  async renderFor() { return '/dev/null' }
}

t.test('one key, one template: the last registration wins, whatever its form', async (t) => {
  const { registry } = await makeRegistry(t)
  registry.registerView('first', { view: 'pdf.simple' })
  registry.registerView('receipt', { view: 'pdf.simple', label: 'Receipt (config)', slots: ['a', 'b'] }, 'config')
  registry.registerView('last', { view: 'pdf.simple' })
  t.equal(registry.get('receipt').label(), 'Receipt (config)')
  t.equal(registry.origin('receipt'), 'config')

  const byClass = registry.register(Receipt)
  t.ok(byClass instanceof Receipt, 'a class is instantiated by the registry')
  t.ok((byClass as Receipt).context?.disk, 'with the registry context (disk, renderers)')
  t.equal(registry.get('receipt'), byClass, 'the class replaced the config entry')
  t.equal(registry.origin('receipt'), 'runtime')
  t.same(registry.get('receipt').slots().map((s) => s.key), ['customer'], 'nothing of the earlier slots survives')

  const instance = new Receipt()
  registry.register(instance, 'panel:admin')
  registry.register(instance, 'panel:admin')
  t.equal(registry.get('receipt'), instance, 'an instance is registered as given')
  t.equal(registry.all().size, 3, 'registering twice is idempotent: still one entry per key')
  t.same([...registry.all().keys()], ['first', 'receipt', 'last'], 'a replacement keeps its place in the list')
  t.equal(registry.origin('receipt'), 'panel:admin')
})

t.test('all() is a snapshot: changing it does not change the registry', async (t) => {
  const { registry } = await makeRegistry(t)
  registry.registerView('one', { view: 'pdf.simple' })
  const all = registry.all() as Map<string, unknown>
  all.delete('one')
  t.ok(registry.has('one'))
})
