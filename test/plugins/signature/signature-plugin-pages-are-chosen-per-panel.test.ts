import Fastify from 'fastify'
import t from 'tap'
import { access } from '../../../config/auth.ts'
import { compilePolicy } from '../../../core/access/policy.ts'
import { Panel } from '../../../core/panel/panel.ts'
import { SignaturePlugin, type SignableSource } from '../../../plugins/signature/index.ts'
import { buildSignatureApp } from '../../helpers/signature-app.ts'

const SIGNER = '/signature-templates/:templateKey/sign/:signatureUuid'
const routesOf = (app: { hasRoute(o: { method: 'GET'; url: string }): boolean }, prefix: string) => ({
  templates: app.hasRoute({ method: 'GET', url: `${prefix}/signature-templates` }),
  designer: app.hasRoute({ method: 'GET', url: `${prefix}/signature-templates/:templateKey/design` }),
  signer: app.hasRoute({ method: 'GET', url: `${prefix}${SIGNER}` }),
  mySignatures: app.hasRoute({ method: 'GET', url: `${prefix}/my-signatures` }),
  inbox: app.hasRoute({ method: 'GET', url: `${prefix}/inbox` }),
})

t.test('each panel gets the pages it chose; without .pages(): templates, designer, signer', async (t) => {
  const record = { id: 'r-1', title: 'The one record' }
  const records: SignableSource<typeof record> = { forTemplate: () => [record], find: (_key, id) => (id === record.id ? record : null) }
  const app = await buildSignatureApp(t, {
    records,
    beforeReady: async (app) => {
      await app.register(Panel.make().id('admin').path('admin').access('admin-roles').plugin(SignaturePlugin.make()))
      await app.register(Panel.make().id('app').path('app').access('signed-in').plugin(SignaturePlugin.make().pages(['inbox', 'signer', 'my-signatures'])))
    },
  })
  t.same(routesOf(app, '/admin'), { templates: true, designer: true, signer: true, mySignatures: false, inbox: false })
  t.same(routesOf(app, '/app'), { templates: false, designer: false, signer: true, mySignatures: true, inbox: true })
  // The one source given, its plain records made Signable by the plugin.
  t.same((await app.signature.records.forTemplate('any')).map((r) => [r.getSignableId(), r.getSignableTitle()]), [['r-1', 'The one record']], 'the one record source, as given')
  t.equal((await app.signature.records.find('any', 'r-1'))?.getSignableId(), 'r-1')
  t.type(app.signature.sessions.inbox, 'function', 'sessions are part of app.signature from the start')
})

t.test('an unknown page is refused when it is chosen', async (t) => {
  t.throws(() => SignaturePlugin.make().pages(['templates', 'people' as never]), /no page "people"/)
})

t.test('a panel with the plugin refuses to boot before the app-level part is registered', async (t) => {
  const app = Fastify()
  t.teardown(() => app.close())
  app.decorate('policy', compilePolicy(access))
  await t.rejects(async () => {
    await app.register(Panel.make().id('app').path('app').access('signed-in').plugin(SignaturePlugin.make()))
    await app.ready()
  }, /app\.signature is missing; register Signatures\.make\(\.\.\.\) before the panels/)
})
