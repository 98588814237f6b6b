import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import Fastify from 'fastify'
import t from 'tap'
import { signature } from '../../../../config/signature.ts'
import type { PanelContext } from '../../../../core/panel/panel-plugin.ts'
import { HOST_VIEWS } from '../../../../host-app/signature.ts'
import { createTemplateRegistry } from '../../../../plugins/signature/create-template-registry.ts'
import { parseSignatureConfig } from '../../../../plugins/signature/signature-config.ts'
import { SignaturePlugin } from '../../../../plugins/signature/signature-plugin.ts'
import { buildTestApp } from '../../../helpers/app.ts'
import { makeRegistry } from '../helpers.ts'

t.test('the host app: config (eager), payslip (runtime) and contract (fluent, admin panel) in one registry', async (t) => {
  const app = await buildTestApp(t)
  const registry = app.signature.registry
  t.same([...registry.all().keys()].sort(), ['contract', 'daily-time-record', 'payslip'])
  t.equal(registry.origin('daily-time-record'), 'config')
  t.equal(registry.origin('payslip'), 'runtime')
  t.equal(registry.origin('contract'), 'panel:admin')
})

t.test('eager config templates need no HTTP server (command-line scripts)', async (t) => {
  const storagePath = await mkdtemp(path.join(tmpdir(), 'cli-'))
  t.teardown(() => rm(storagePath, { recursive: true, force: true }))
  const registry = createTemplateRegistry(parseSignatureConfig(signature), { storagePath, viewsRoot: HOST_VIEWS })
  t.teardown(() => registry.close())
  t.same([...registry.all().keys()], Object.keys(signature.templates ?? {}))
  t.same(registry.get('daily-time-record').slots().map((s) => s.key), ['employee', 'supervisor'])
})

function stubPanel(id: string): PanelContext {
  return { id, path: id, url: (name) => `/${id}/${name}`, navigationItem: () => {} }
}

t.test('fluent templates register when the panel boots, replacing config entries with the same key', async (t) => {
  const { registry } = await makeRegistry(t)
  registry.registerViews({ shared: { view: 'pdf.simple', label: 'From config' }, other: { view: 'pdf.simple' } })

  const plugin = SignaturePlugin.make().registry(registry).templates([
    { key: 'shared', view: 'pdf.simple', label: 'From the panel' },
    { key: 'panel-only', view: 'pdf.simple', slots: ['a'] },
  ])
  t.notOk(registry.has('panel-only'), 'nothing is registered before the panel boots')

  const app = Fastify()
  t.teardown(() => app.close())
  await app.register(async (scope) => { await plugin.boot(stubPanel('office'), scope) }, { prefix: '/office' })
  await app.ready()

  t.equal(registry.get('shared').label(), 'From the panel', 'the later registration replaced the config one')
  t.equal(registry.origin('shared'), 'panel:office')
  t.equal(registry.origin('other'), 'config')
  t.ok(registry.has('panel-only'))

  // Runtime after boot: same registry, same rule.
  registry.registerView('panel-only', { view: 'pdf.simple', label: 'Runtime wins' })
  t.equal(registry.get('panel-only').label(), 'Runtime wins')
  t.equal(registry.all().size, 3)
})

t.test('two panels can bring different templates into the same registry', async (t) => {
  const { registry } = await makeRegistry(t)
  const app = Fastify()
  t.teardown(() => app.close())
  await app.register(async (scope) => { await SignaturePlugin.make().registry(registry).templates([{ key: 'only-a', view: 'pdf.simple' }]).boot(stubPanel('a'), scope) }, { prefix: '/a' })
  await app.register(async (scope) => { await SignaturePlugin.make().registry(registry).templates([{ key: 'only-b', view: 'pdf.simple' }]).boot(stubPanel('b'), scope) }, { prefix: '/b' })
  await app.ready()
  t.equal(registry.origin('only-a'), 'panel:a')
  t.equal(registry.origin('only-b'), 'panel:b')
})
