// Conversions between the designer's CSS pixels and PDF points. Shared by the browser (served
// as an ES module) and the server's tests. Only the browser knows pixels: what it saves is points,
// y from the bottom of the page, computed from the page's size in points — never from a DPI.

/**
 * @typedef {{ width: number, height: number }} Size
 * @typedef {{ left: number, top: number, width: number, height: number }} PxBox
 * @typedef {{ x: number, y: number, width: number, height: number }} PtBox
 */

const round = (value) => Math.round(value * 100) / 100

/** CSS px per PDF point for a page shown at `shown` CSS pixels. */
export function scaleOf(pagePt, shownPx) {
  return shownPx.width / pagePt.width
}

/** @returns {PtBox} */
export function pxToPt(box, pagePt, shownPx) {
  const s = scaleOf(pagePt, shownPx)
  return {
    x: round(box.left / s),
    y: round(pagePt.height - (box.top + box.height) / s),
    width: round(box.width / s),
    height: round(box.height / s),
  }
}

/** @returns {PxBox} */
export function ptToPx(box, pagePt, shownPx) {
  const s = scaleOf(pagePt, shownPx)
  return {
    left: box.x * s,
    top: (pagePt.height - box.y - box.height) * s,
    width: box.width * s,
    height: box.height * s,
  }
}

/** Keeps a pixel box wholly on the shown page (a box cannot be dragged off it). */
export function clampPx(box, shownPx, minSize = 8) {
  const width = Math.min(Math.max(box.width, minSize), shownPx.width)
  const height = Math.min(Math.max(box.height, minSize), shownPx.height)
  return {
    left: Math.min(Math.max(box.left, 0), shownPx.width - width),
    top: Math.min(Math.max(box.top, 0), shownPx.height - height),
    width,
    height,
  }
}

/**
 * A box as percentages of its page (left and width of the page's width, top and height of its
 * height), y flipped: for overlays on a page image that scales with the window, nothing to measure.
 * @returns {PxBox}
 */
export function ptToPercent(box, pagePt) {
  return {
    left: (box.x / pagePt.width) * 100,
    top: ((pagePt.height - box.y - box.height) / pagePt.height) * 100,
    width: (box.width / pagePt.width) * 100,
    height: (box.height / pagePt.height) * 100,
  }
}
