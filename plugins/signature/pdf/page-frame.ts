// The one coordinate convention, and the one place it is converted. Every box outside this file
// (designer, signer page, finalize, /api/sign, sessions, saved rows, page images) is in PDF points
// on the page AS DISPLAYED: origin at the bottom-left of the visible area (CropBox clipped to
// MediaBox), after /Rotate, y up, /UserUnit honoured. Only stamping needs the page's own user
// space, so only this file knows it: what a viewer shows and where a stamp lands cannot disagree.
import { PDFArray, PDFName, PDFNumber, type PDFPage } from 'pdf-lib'
import { normalizeRect, type Box } from './stamp-geometry.ts'

export type QuarterTurn = 0 | 90 | 180 | 270

export interface PageFrame {
  /** The visible area in the page's user space: the CropBox clipped to the MediaBox. */
  visible: Box
  /** Clockwise turn of the page when displayed (/Rotate). */
  rotate: QuarterTurn
  /** Points per user-space unit (/UserUnit, PDF 1.6; 1 when absent). */
  userUnit: number
  /** Displayed size in points. */
  width: number
  height: number
}

/** PDF matrix [a b c d e f]: (x, y) -> (a x + c y + e, b x + d y + f). */
export type Matrix = [number, number, number, number, number, number]

/** As viewers do (mupdf, pdf.js): /Rotate is a multiple of 90; anything else is taken to the nearest one. */
export function quarterTurn(degrees: number): QuarterTurn {
  const turn = ((Math.round((Number.isFinite(degrees) ? degrees : 0) / 90) % 4) + 4) % 4
  return (turn * 90) as QuarterTurn
}

export function frameOf(visible: Box, rotate: number, userUnit = 1): PageFrame {
  const turn = quarterTurn(rotate)
  const unit = Number.isFinite(userUnit) && userUnit > 0 ? userUnit : 1
  const sideways = turn === 90 || turn === 270
  const width = (sideways ? visible.height : visible.width) * unit
  const height = (sideways ? visible.width : visible.height) * unit
  return { visible, rotate: turn, userUnit: unit, width, height }
}

/** A pdf-lib page's frame: MediaBox and CropBox (both inheritable), /Rotate, /UserUnit. */
export function pageFrame(page: PDFPage): PageFrame {
  const media = normalizeRect(numbers(page.node.MediaBox()))
  const crop = page.node.CropBox() ? normalizeRect(numbers(page.node.CropBox())) : media
  const unit = page.node.lookupMaybe(PDFName.of('UserUnit'), PDFNumber)?.asNumber() ?? 1
  return frameOf(intersect(crop, media), page.getRotation().angle, unit)
}

/** The affine map from displayed points to the frame's user space. */
export function displayedToUser(frame: PageFrame): Matrix {
  const k = 1 / frame.userUnit
  const { x, y, width: w, height: h } = frame.visible
  switch (frame.rotate) {
    case 0: return [k, 0, 0, k, x, y]
    case 90: return [0, k, -k, 0, x + w, y]
    case 180: return [-k, 0, 0, -k, x + w, y + h]
    case 270: return [0, -k, k, 0, x, y + h]
  }
}

/** A displayed box in user space (for a widget's /Rect): the image of its corners, normalized. */
export function toUserSpace(frame: PageFrame, box: Box): Box {
  const m = displayedToUser(frame)
  const [x1, y1] = apply(m, box.x, box.y)
  const [x2, y2] = apply(m, box.x + box.width, box.y + box.height)
  return normalizeRect([x1, y1, x2, y2])
}

/**
 * The `cm` that draws an image (the unit square) into a displayed box, upright as displayed: the
 * image's right is the displayed right, its top the displayed top, whatever /Rotate says.
 */
export function uprightImageMatrix(frame: PageFrame, box: Box): Matrix {
  const [a, b, c, d, e, f] = displayedToUser(frame)
  return [a * box.width, b * box.width, c * box.height, d * box.height, a * box.x + c * box.y + e, b * box.x + d * box.y + f]
}

function apply([a, b, c, d, e, f]: Matrix, x: number, y: number): [number, number] {
  return [a * x + c * y + e, b * x + d * y + f]
}

function intersect(a: Box, b: Box): Box {
  const x = Math.max(a.x, b.x)
  const y = Math.max(a.y, b.y)
  const width = Math.max(0, Math.min(a.x + a.width, b.x + b.width) - x)
  const height = Math.max(0, Math.min(a.y + a.height, b.y + b.height) - y)
  return { x, y, width, height }
}

function numbers(array: PDFArray | undefined): number[] {
  if (!array) return []
  return array.asArray().map((_, i) => array.lookupMaybe(i, PDFNumber)?.asNumber() ?? NaN)
}
