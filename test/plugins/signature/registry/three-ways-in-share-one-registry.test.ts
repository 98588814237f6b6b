import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import t from 'tap'
import { signature } from '../../../../config/signature.ts'
import { Panel } from '../../../../core/panel/panel.ts'
import { HOST_VIEWS } from '../../../../host-app/app.ts'
import { createTemplateRegistry } from '../../../../plugins/signature/create-template-registry.ts'
import { SignaturePlugin } from '../../../../plugins/signature/index.ts'
import { parseSignatureConfig } from '../../../../plugins/signature/signature-config.ts'
import { buildTestApp } from '../../../helpers/app.ts'
import { buildSignatureApp } from '../../../helpers/signature-app.ts'

t.test('the host app: config (eager), contract (fluent, app-level) and payslip (runtime) in one registry', async (t) => {
  const app = await buildTestApp(t)
  const registry = app.signature.registry
  t.same([...registry.all().keys()].sort(), ['contract', 'daily-time-record', 'payslip'])
  t.equal(registry.origin('daily-time-record'), 'config')
  t.equal(registry.origin('payslip'), 'runtime')
  t.equal(registry.origin('contract'), 'fluent')
})

t.test('eager config templates need no HTTP server (command-line scripts)', async (t) => {
  const storagePath = await mkdtemp(path.join(tmpdir(), 'cli-'))
  t.teardown(() => rm(storagePath, { recursive: true, force: true }))
  const registry = createTemplateRegistry(parseSignatureConfig(signature), { storagePath, viewsRoot: HOST_VIEWS })
  t.teardown(() => registry.close())
  t.same([...registry.all().keys()], Object.keys(signature.templates ?? {}))
  t.same(registry.get('daily-time-record').slots().map((s) => s.key), ['employee', 'supervisor'])
})

t.test('fluent templates register with the app-level plugin, replacing config entries with the same key', async (t) => {
  const app = await buildSignatureApp(t, {
    config: { templates: { shared: { view: 'pdf.simple', label: 'From config' }, other: { view: 'pdf.simple' } } },
    configure: (signatures) => signatures.templates([
      { key: 'shared', view: 'pdf.simple', label: 'From the host' },
      { key: 'fluent-only', view: 'pdf.simple', slots: ['a'] },
    ]),
  })
  const registry = app.signature.registry
  t.equal(registry.get('shared').label(), 'From the host', 'the later registration replaced the config one')
  t.equal(registry.origin('shared'), 'fluent')
  t.equal(registry.origin('other'), 'config')
  t.ok(registry.has('fluent-only'))

  // Runtime after boot: same registry, same rule.
  registry.registerView('fluent-only', { view: 'pdf.simple', label: 'Runtime wins' })
  t.equal(registry.get('fluent-only').label(), 'Runtime wins')
  t.equal(registry.origin('fluent-only'), 'runtime')
  t.equal(registry.all().size, 3)
})

t.test('templates do not depend on panels: complete before any panel boots, unchanged by panels', async (t) => {
  let beforePanels: string[] = []
  const app = await buildSignatureApp(t, {
    configure: (signatures) => signatures.templates([{ key: 'only-a', view: 'pdf.simple' }, { key: 'only-b', view: 'pdf.simple' }]),
    beforeReady: async (app) => {
      beforePanels = [...app.signature.registry.all().keys()]
      await app.register(Panel.make().id('a').path('a').access('signed-in').plugin(SignaturePlugin.make()))
      await app.register(Panel.make().id('b').path('b').access('signed-in').plugin(SignaturePlugin.make().pages(['signer'])))
    },
  })
  t.same(beforePanels, ['only-a', 'only-b'])
  t.same([...app.signature.registry.all().keys()], ['only-a', 'only-b'])
  t.equal(app.signature.registry.origin('only-a'), 'fluent')
})

// The specification's fluent way: SignaturePlugin.make().templates([...]) on a panel.
t.test('a panel\'s fluent templates register when the panel boots, replacing config entries with the same key', async (t) => {
  const app = await buildSignatureApp(t, {
    config: { templates: { shared: { view: 'pdf.simple', label: 'From config' }, other: { view: 'pdf.simple' } } },
    beforeReady: async (app) => {
      t.notOk(app.signature.registry.has('panel-only'), 'nothing is registered before the panel boots')
      await app.register(Panel.make().id('office').path('office').access('signed-in').plugin(SignaturePlugin.make().templates([
        { key: 'shared', view: 'pdf.simple', label: 'From the panel' },
        { key: 'panel-only', view: 'pdf.simple', slots: ['a'] },
      ])))
    },
  })
  const registry = app.signature.registry
  t.equal(registry.get('shared').label(), 'From the panel', 'the later registration replaced the config one')
  t.equal(registry.origin('shared'), 'panel:office')
  t.equal(registry.origin('other'), 'config')
  t.ok(registry.has('panel-only'))
  registry.registerView('panel-only', { view: 'pdf.simple', label: 'Runtime wins' })
  t.equal(registry.get('panel-only').label(), 'Runtime wins')
  t.equal(registry.all().size, 3)
})

t.test('two panels can bring different templates into the same registry', async (t) => {
  const app = await buildSignatureApp(t, {
    beforeReady: async (app) => {
      await app.register(Panel.make().id('a').path('a').access('signed-in').plugin(SignaturePlugin.make().templates([{ key: 'only-a', view: 'pdf.simple' }])))
      await app.register(Panel.make().id('b').path('b').access('signed-in').plugin(SignaturePlugin.make().pages(['signer']).templates([{ key: 'only-b', view: 'pdf.simple' }])))
    },
  })
  t.equal(app.signature.registry.origin('only-a'), 'panel:a')
  t.equal(app.signature.registry.origin('only-b'), 'panel:b')
})
