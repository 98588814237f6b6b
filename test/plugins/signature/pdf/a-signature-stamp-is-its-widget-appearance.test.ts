// A one-pass signature shows its stamp as the signature field's widget (its /AP), as a session
// signer's does, not as page content: a viewer then ties the stamp to the signature. Further
// stamps of the same signature are drawn into the page, which that signature covers.
import t from 'tap'
import { signDocument } from '../../../../plugins/signature/pdf/index.ts'
import { inkShare, pdfsig, qpdfObjects, renderAsViewer, imageInkShare } from '../../../fixtures/pdf/checkers.ts'
import { makePdf } from '../../../fixtures/pdf/make-pdf.ts'
import { makeStampPng } from '../../../fixtures/pdf/stamp-image.ts'
import { testUserCertificate } from '../../../fixtures/pdf/test-certificates.ts'

type Dict = Record<string, unknown>
const image = makeStampPng()
const box = { page: 1, x: 300, y: 200, width: 200, height: 80 }
const other = { page: 1, x: 60, y: 450, width: 160, height: 60 }

async function pageXObjects(pdf: Uint8Array): Promise<string[]> {
  const objects = await qpdfObjects(pdf)
  const page = [...objects.values()].find((value) => (value as Dict | undefined)?.['/Type'] === '/Page') as Dict
  const resources = (typeof page['/Resources'] === 'string' ? objects.get(page['/Resources']) : page['/Resources']) as Dict | undefined
  return Object.keys((resources?.['/XObject'] as Dict | undefined) ?? {})
}

t.test('one stamp: the widget has the box as /Rect and draws the stamp; the page content is untouched', async (t) => {
  const source = await makePdf()
  const signed = await signDocument(source, { stamps: [{ ...box, image }], signer: testUserCertificate('Alice'), certify: {} })
  const objects = await qpdfObjects(signed)
  const widget = [...objects.values()].find((value) => (value as Dict | undefined)?.['/FT'] === '/Sig') as Dict
  t.same(widget['/Rect'], [300, 200, 500, 280], 'the widget is the stamp\'s box')
  const normal = objects.get((widget['/AP'] as Dict)['/N'] as string) as Dict
  t.match(normal, { '/Subtype': '/Form', '/BBox': [0, 0, 200, 80] }, 'its appearance is a form the size of the box')
  t.ok(Object.keys(((normal['/Resources'] as Dict)['/XObject'] as Dict)).length === 1, 'which draws one image')
  t.same(await pageXObjects(signed), await pageXObjects(source), 'the page gains no XObject: nothing was drawn into its content')
  const [inside, outside] = await inkShare(signed, 1, [box, other])
  t.ok(inside! > 0.01 && outside! < 0.001, `mupdf shows the stamp in its box only (${inside} / ${outside})`)
  const viewer = await imageInkShare(await renderAsViewer(signed, 1), 612, [box], 72)
  t.ok(viewer[0]! > 0.01, `poppler shows it too (${viewer[0]})`)
  const { signatures, output } = await pdfsig(signed)
  t.ok(signatures.length === 1 && signatures[0]!.valid, output)
})

t.test('two stamps of one signature: the first is the widget, the second is drawn into the signed page', async (t) => {
  const signed = await signDocument(await makePdf(), { stamps: [{ ...box, image }, { ...other, image }], signer: testUserCertificate('Alice'), certify: {} })
  const widgets = [...(await qpdfObjects(signed)).values()].filter((value) => (value as Dict | undefined)?.['/Subtype'] === '/Widget')
  t.equal(widgets.length, 1, 'one widget: poppler reads a field with several widgets as several unsigned fields')
  t.equal((await pageXObjects(signed)).length, 1, 'the second stamp is an image drawn by the page')
  const ink = await inkShare(signed, 1, [box, other])
  t.ok(ink.every((share) => share > 0.01), `both stamps show (${ink.join(', ')})`)
  const { signatures, output } = await pdfsig(signed)
  t.ok(signatures.length === 1 && signatures[0]!.valid && signatures[0]!.totalDocumentSigned, output)
})
