import t from 'tap'
import { HasPdfTemplate } from '../../../../plugins/signature/contracts/has-pdf-template.ts'
import { isSignable, type Signable } from '../../../../plugins/signature/contracts/signable.ts'
import { makeRegistry } from '../helpers.ts'
import type { TemplateLookup } from '../../../../plugins/signature/contracts/has-pdf-template.ts'

class LeaveRequestData {
  readonly signaturePdfTemplate = 'leave-request'
  constructor(readonly templates: TemplateLookup, readonly id: string, readonly title: string) {}
}
class LeaveRequest extends HasPdfTemplate(LeaveRequestData, (r) => r.templates) {}
class TitledLeaveRequest extends HasPdfTemplate(LeaveRequestData, (r) => r.templates) {
  override getSignableTitle(): string { return `Leave: ${this.title}` }
  override getSignableId(): string { return `leave-${this.id}` }
}

t.test('the trait implements all three methods from the declared template', async (t) => {
  const { registry, disk } = await makeRegistry(t)
  registry.registerView('leave-request', { view: 'pdf.simple', data_resolver: (record) => ({ title: (record as LeaveRequest).title }) })
  const record = new LeaveRequest(registry, '7', 'Summer holiday')
  t.ok(isSignable(record))
  t.equal(record.getSignableId(), '7')
  t.equal(record.getSignableTitle(), 'Leave Request #7', 'default title: template label + id')
  const file = await record.getSignablePdfPath()
  t.equal(file, disk.path('documents/leave-request/7.pdf'), 'renderFor() of the registered template')
  const { readFile } = await import('node:fs/promises')
  t.equal(await readFile(file, 'utf8'), '<h1>Summer holiday</h1>', 'through the template\'s data_resolver')
})

t.test('each method may be overridden', async (t) => {
  const { registry, disk } = await makeRegistry(t)
  registry.registerView('leave-request', { view: 'pdf.simple' })
  const record = new TitledLeaveRequest(registry, '8', 'Winter')
  t.equal(record.getSignableTitle(), 'Leave: Winter')
  t.equal(record.getSignableId(), 'leave-8')
  t.equal(await record.getSignablePdfPath(), disk.path('documents/leave-request/leave-8.pdf'), 'the file follows the overridden id')
})

t.test('a template registered later, or replaced, is the one used (looked up at call time)', async (t) => {
  const { registry } = await makeRegistry(t)
  const record = new LeaveRequest(registry, '9', 'x')
  t.throws(() => record.getSignableTitle(), { code: 'ERR_TEMPLATE_NOT_FOUND' }, 'a record naming an unknown template fails loudly')
  registry.registerView('leave-request', { view: 'pdf.simple', label: 'Leave' })
  t.equal(record.getSignableTitle(), 'Leave #9')
})

t.test('a record may implement Signable directly, with no template (the older flow)', async (t) => {
  const direct: Signable = { getSignableId: () => 'x', getSignableTitle: () => 'Direct', getSignablePdfPath: async () => '/tmp/direct.pdf' }
  t.ok(isSignable(direct))
  t.notOk(isSignable({ getSignableId: () => 'x' }), 'all three methods are required')
})
