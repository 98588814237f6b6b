import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { degrees, PDFDocument } from 'pdf-lib'
import t from 'tap'
import { SlotDefinition } from '../../../../plugins/signature/contracts/slot-definition.ts'
import type { PdfTemplate } from '../../../../plugins/signature/contracts/pdf-template.ts'
import { buildTestApp, DEMO, login } from '../../../helpers/app.ts'
import { pngSize } from '../../../fixtures/pdf/checkers.ts'
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

// Such samples were refused (422 ERR_PAGE_GEOMETRY_UNSUPPORTED). Issue 17: the designer measures
// and shows the page as displayed (CropBox, after /Rotate), and a save is checked against that.
t.test('a sample with /Rotate or a crop box off the origin is designed as displayed', async (t) => {
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
  const dpi = app.signature.pageImages.dpi

  const cases = [
    // Shown 842 x 595: x = 700 fits only because the page is turned; y = 550 + 60 does not.
    { key: 'rotated-sample', shown: { width: 842, height: 595 }, fits: { x: 700, y: 500, width: 120, height: 60 }, off: { x: 10, y: 550, width: 120, height: 60 } },
    // Shown 500 x 700: y = 700 - 60 fits the crop; x = 400 + 120 passes its right edge (though not the MediaBox's).
    { key: 'cropped-sample', shown: { width: 500, height: 700 }, fits: { x: 370, y: 640, width: 120, height: 60 }, off: { x: 400, y: 10, width: 120, height: 60 } },
  ]
  for (const { key, shown, fits, off } of cases) {
    const base = `/admin/signature-templates/${key}/design`
    const meta = await app.inject({ url: `${base}/meta`, headers: { cookie, accept: 'application/json' } })
    t.equal(meta.statusCode, 200, `${key}: ${meta.body.slice(0, 200)}`)
    t.same(meta.json().pages, [{ page: 1, ...shown }], `${key}: page size as displayed`)
    const image = await app.inject({ url: `${base}/pages/1`, headers: { cookie, accept: 'application/json' } })
    t.equal(image.statusCode, 200, key)
    t.same(pngSize(image.rawPayload), { width: Math.round(shown.width * dpi / 72), height: Math.round(shown.height * dpi / 72) }, `${key}: the image is the page as displayed`)
    const save = (box: object) => app.inject({ method: 'POST', url: `${base}/slots/a`, headers: { cookie, 'x-csrf-token': token, accept: 'application/json' }, payload: { page: 1, ...box } })
    const refused = await save(off)
    t.equal(refused.statusCode, 422, `${key}: past the displayed edge`)
    t.equal(refused.json().code, 'ERR_PLACEMENT_OFF_PAGE')
    t.same(await app.signature.slots.forTemplate(key), [], `${key}: nothing written`)
    const saved = await save(fits)
    t.equal(saved.statusCode, 200, `${key}: ${saved.body.slice(0, 200)}`)
    t.match(saved.json(), { page: 1, ...fits, saved: true })
  }
})
