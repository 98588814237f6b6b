import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { degrees, PDFDocument } from 'pdf-lib'
import t from 'tap'
import { SlotDefinition } from '../../../../plugins/signature/contracts/slot-definition.ts'
import type { PdfTemplate } from '../../../../plugins/signature/contracts/pdf-template.ts'
import { buildTestApp, DEMO, login } from '../../../helpers/app.ts'
import { csrfFor } from '../../../helpers/pages.ts'

function templateOf(key: string, file: string): PdfTemplate {
  return {
    key: () => key,
    label: () => key,
    slots: () => [new SlotDefinition({ key: 'a', label: 'A', defaultPage: 1, defaultX: 10, defaultY: 10, defaultWidth: 100, defaultHeight: 30, required: true })],
    renderSample: async () => file,
    renderFor: async () => file,
  }
}

// Where a box lands on such pages is not where it was drawn on the image: refused with the reason
// (ERR_PAGE_GEOMETRY_UNSUPPORTED, 422) rather than stamped somewhere else.
t.test('a sample with /Rotate or a crop box off the origin is refused with a clear message', async (t) => {
  const dir = await mkdtemp(path.join(tmpdir(), 'designer-geometry-'))
  t.teardown(() => rm(dir, { recursive: true, force: true }))
  const rotated = await PDFDocument.create()
  rotated.addPage([595, 842]).setRotation(degrees(90))
  await writeFile(path.join(dir, 'rotated.pdf'), await rotated.save())
  const cropped = await PDFDocument.create()
  cropped.addPage([595, 842]).setCropBox(20, 20, 500, 700)
  await writeFile(path.join(dir, 'cropped.pdf'), await cropped.save())

  const app = await buildTestApp(t)
  app.signature.registry.register(templateOf('rotated-sample', path.join(dir, 'rotated.pdf')))
  app.signature.registry.register(templateOf('cropped-sample', path.join(dir, 'cropped.pdf')))
  const cookie = await login(app, DEMO.admin.email)
  const token = await csrfFor(app, cookie)

  for (const [key, reason] of [['rotated-sample', /rotated by 90/], ['cropped-sample', /crop box not at the origin/]] as const) {
    const base = `/admin/signature-templates/${key}/design`
    for (const response of [
      await app.inject({ url: `${base}/meta`, headers: { cookie, accept: 'application/json' } }),
      await app.inject({ url: `${base}/pages/1`, headers: { cookie, accept: 'application/json' } }),
      await app.inject({ method: 'POST', url: `${base}/slots/a`, headers: { cookie, 'x-csrf-token': token, accept: 'application/json' }, payload: { page: 1, x: 10, y: 10, width: 100, height: 30 } }),
    ]) {
      t.equal(response.statusCode, 422, key)
      t.equal(response.json().code, 'ERR_PAGE_GEOMETRY_UNSUPPORTED')
      t.match(response.json().message, reason)
    }
    t.same(await app.signature.slots.forTemplate(key), [], `${key}: nothing written`)
  }
})
