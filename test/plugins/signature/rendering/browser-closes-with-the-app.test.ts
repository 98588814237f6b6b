import t from 'tap'
import { ChromiumPdfRenderer } from '../../../../plugins/signature/rendering/chromium-pdf-renderer.ts'
import { buildTestApp } from '../../../helpers/app.ts'

t.test('the shared browser is closed when the app closes', { skip: ChromiumPdfRenderer.isAvailable() ? false : 'Chromium is not installed (set CHROMIUM_PATH)' }, async (t) => {
  const app = await buildTestApp(t)
  const registry = app.signature.registry
  const renderer = registry.renderer(ChromiumPdfRenderer) as ChromiumPdfRenderer
  t.equal(registry.renderer(ChromiumPdfRenderer), renderer, 'one instance per app, shared by every template')
  await registry.get('daily-time-record').renderSample()
  await registry.get('contract').renderSample()
  t.equal(renderer.stats().launched, true)
  await app.close()
  t.equal(renderer.stats().launched, false, 'closed by the onClose hook')
})
