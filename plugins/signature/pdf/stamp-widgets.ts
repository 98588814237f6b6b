// The widget that shows a signature's stamp: the stamp image drawn as its appearance (/AP /N).
// A widget is what a viewer ties to the signature (it highlights it, opens its details), and it
// is the only visible thing a later signer may add under DocMDP; page content is not.
import type { PDFDocument } from 'pdf-lib'
import { assertOnPage } from './box-on-page.ts'
import type { SignatureWidget } from './create-signature-field.ts'
import { embedStampImage, type StampImage } from './embed-stamp-image.ts'
import { pageFrame, toUserSpace } from './page-frame.ts'
import { pageAt } from './page-lookup.ts'
import { createStampAppearance } from './stamp-appearance.ts'
import type { Box } from './stamp-geometry.ts'

/** A box in points on the page as displayed (page-frame.ts), and the image drawn upright into it. */
export interface Stamp extends Box {
  /** 1-based page number. */
  page: number
  /** PNG or JPEG bytes. */
  image: Uint8Array
}

/** Every box is checked before anything is built: a page the PDF lacks is ERR_PAGE_OUT_OF_RANGE, a box off its page is refused by assertOnPage. */
export function assertStampsOnPages(doc: PDFDocument, stamps: Stamp[]): void {
  // Only the stamped pages are measured (framing all of them was 3.7 % of a 100-page signature);
  // the others keep their place so that pages[i] is still page i + 1.
  const wanted = new Set(stamps.map((stamp) => stamp.page))
  const frames = doc.getPages().map((page, i) => (wanted.has(i + 1) ? pageFrame(page) : { width: 0, height: 0 }))
  stamps.forEach((stamp, i) => {
    pageAt(doc, stamp.page)
    assertOnPage(stamp, frames, `stamp ${i + 1}`)
  })
}

export async function stampWidget(doc: PDFDocument, stamp: Stamp, image?: StampImage): Promise<SignatureWidget> {
  const page = pageAt(doc, stamp.page)
  const frame = pageFrame(page)
  const rect = toUserSpace(frame, stamp)
  return { page, rect, appearance: createStampAppearance(doc.context, image ?? await embedStampImage(doc, stamp.image), rect, frame.rotate) }
}
