import t from 'tap'
import { isValidTemplateKey } from '../../../../plugins/signature/templates/template-key.ts'
import { TemplateConfigError } from '../../../../plugins/signature/templates/template-config-error.ts'
import { makeRegistry } from '../helpers.ts'

const good = ['a', '0', 'daily-time-record', 'payslip.v2', 'hr_contract', '2026-leave']
const bad = ['', 'Payslip', '-lead', '.hidden', '_x', 'a/b', 'a\\b', 'a b', 'a..b', '../x', 'a%2fb', 'é', 'a\0', 'x'.repeat(121), 'a?b', 'a#b']

for (const key of good) t.ok(isValidTemplateKey(key), `accepts ${JSON.stringify(key)}`)
for (const key of bad) t.notOk(isValidTemplateKey(key), `refuses ${JSON.stringify(key)}`)

t.test('the registry refuses a bad key in every way in', async (t) => {
  const { registry } = await makeRegistry(t)
  t.throws(() => registry.registerView('Bad Key', { view: 'pdf.simple' }), TemplateConfigError)
  t.throws(() => registry.register({
    key: () => '../escape', label: () => 'x', slots: () => [], renderSample: async () => '', renderFor: async () => '',
  }), { code: 'ERR_INVALID_TEMPLATE_KEY' })
  t.equal(registry.all().size, 0, 'nothing was registered')
})

t.test('slot keys follow the same rule', async (t) => {
  const { registry } = await makeRegistry(t)
  t.throws(() => registry.registerView('ok', { view: 'pdf.simple', slots: ['Employee Signature'] }), /slots\[0\]: invalid slot key/)
})
