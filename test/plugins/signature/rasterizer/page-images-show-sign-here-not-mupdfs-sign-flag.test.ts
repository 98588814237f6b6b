// Issue 21: the page images of a session's document (mupdf) showed a tiny red "SIGN" flag for
// each unsigned field; they now show the field's own "Sign here: <label>" appearance.
import * as mupdf from 'mupdf'
import t from 'tap'
import { freezeDocument, signField } from '../../../../plugins/signature/pdf/index.ts'
import { rasterizePage } from '../../../../plugins/signature/rasterizer/rasterize-page.ts'
import { makePdf } from '../../../fixtures/pdf/make-pdf.ts'
import { makeStampPng } from '../../../fixtures/pdf/stamp-image.ts'
import { testUserCertificate } from '../../../fixtures/pdf/test-certificates.ts'

const FIELD = { name: 'employee', label: 'Employee', page: 1, x: 60, y: 60, width: 240, height: 48 }

/** Pixels of the page image (72 DPI) in the field's box: mupdf's red flag, and the placeholder's dark blue. */
function colours(png: Uint8Array, pageHeight: number): { red: number; blue: number } {
  const pixmap = new mupdf.Image(png).toPixmap()
  const pixels = pixmap.getPixels()
  const n = pixmap.getNumberOfComponents()
  const stride = pixmap.getStride()
  let red = 0
  let blue = 0
  const top = Math.round(pageHeight - FIELD.y - FIELD.height)
  for (let y = Math.max(top - 12, 0); y < top + FIELD.height; y++) {
    for (let x = FIELD.x - 12; x < FIELD.x + FIELD.width; x++) {
      const [r, g, b] = [pixels[y * stride + x * n]!, pixels[y * stride + x * n + 1]!, pixels[y * stride + x * n + 2]!]
      if (r > 180 && g < 140 && b < 110) red++
      if (b > r + 40 && b > g + 20) blue++
    }
  }
  return { red, blue }
}

t.test('an unsigned field is drawn with its "Sign here" appearance, without mupdf\'s flag', async (t) => {
  const frozen = await freezeDocument(await makePdf(), { fields: [FIELD], signer: testUserCertificate('App') })
  const { red, blue } = colours(rasterizePage(frozen, 1, 72), 612)
  t.equal(red, 0, 'no red SIGN flag')
  t.ok(blue > 50, `the dark blue frame and words are drawn (${blue} px)`)

  const signed = await signField(frozen, { fieldName: 'employee', image: makeStampPng(), signer: testUserCertificate('Sam'), reason: 'Signed' })
  t.equal(colours(rasterizePage(signed, 1, 72), 612).red, 0, 'signed: the signer\'s stamp, no flag either')
})
