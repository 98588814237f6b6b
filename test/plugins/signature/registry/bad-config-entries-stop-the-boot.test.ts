import t from 'tap'
import { TemplateConfigError } from '../../../../plugins/signature/templates/template-config-error.ts'
import { makeRegistry, NeverAvailableRenderer } from '../helpers.ts'

// Each bad entry must fail with a message naming the template and the offending field.
const cases: Array<[string, unknown, RegExp]> = [
  ['no view', { label: 'X' }, /"broken": view: required/],
  ['view not a dotted name', { view: '../etc/passwd' }, /"broken": view: a dotted view name/],
  ['negative width', { view: 'pdf.simple', slots: { employee: { width: -5 } } }, /"broken": slots\.employee\.width: /],
  ['zero height in a list', { view: 'pdf.simple', slots: [{ key: 'a', height: 0 }] }, /"broken": slots\[0\]\.height: /],
  ['a box below the minimum size', { view: 'pdf.simple', slots: { a: { width: 1e-9 } } }, /"broken": slots\.a\.width: .*at least 8 pt/],
  ['negative x', { view: 'pdf.simple', slots: ['a', { b: { x: -1 } }] }, /"broken": slots\[1\]\.b\.x: /],
  ['page 0', { view: 'pdf.simple', slots: { a: { page: 0 } } }, /"broken": slots\.a\.page: /],
  ['duplicate slot key', { view: 'pdf.simple', slots: ['a', { key: 'a' }] }, /"broken": slots\[1\]: duplicate slot key "a"/],
  ['unknown renderer name', { view: 'pdf.simple', renderer: 'wkhtmltopdf' }, /"broken": renderer: unknown renderer "wkhtmltopdf"/],
  ['renderer not a renderer class', { view: 'pdf.simple', renderer: class {} }, /"broken": renderer: /],
  ['unknown field', { view: 'pdf.simple', colour: 'red' }, /"broken": \(entry\): unknown field\(s\): colour/],
  ['unknown slot field', { view: 'pdf.simple', slots: { a: { colour: 'red' } } }, /"broken": slots\.a: unknown field\(s\): colour/],
  ['sample_data not an object', { view: 'pdf.simple', sample_data: 42 }, /"broken": sample_data: /],
  ['data_resolver not a function', { view: 'pdf.simple', data_resolver: 'record' }, /"broken": data_resolver: /],
  ['slots not a list or map', { view: 'pdf.simple', slots: 'employee' }, /"broken": slots: expected a list or a map/],
]

for (const [name, entry, message] of cases) {
  t.test(name, async (t) => {
    const { registry } = await makeRegistry(t)
    t.throws(() => registry.registerViews({ fine: { view: 'pdf.simple' }, broken: entry as never }), TemplateConfigError)
    t.throws(() => registry.registerView('broken', entry as never), message)
    t.notOk(registry.has('broken'), 'the bad entry is not registered')
  })
}

t.test('a renderer that cannot run here is not a config error: the template registers, marked unavailable', async (t) => {
  const { registry } = await makeRegistry(t, { renderers: { imaginary: NeverAvailableRenderer } })
  const template = registry.registerView('needs-imaginary', { view: 'pdf.simple', renderer: 'imaginary' })
  t.equal(registry.isAvailable(template), false)
  await t.rejects(template.renderSample(), { code: 'ERR_RENDERER_UNAVAILABLE', statusCode: 503, message: /install the imaginary renderer/ })
})
