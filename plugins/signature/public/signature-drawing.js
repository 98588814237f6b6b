// Making a signature image in the browser, for every page that lets a user make one (My
// signatures, the signer page when the library is empty): a signature_pad canvas kept sharp at
// the device's pixel ratio, the strokes trimmed to their ink, and a typed name drawn in the
// handwriting face of signature-font.css. Exposes window.signatureDrawing.
(function () {
  'use strict'
  const INK = '#10246b'
  const TYPED_FONT = '"Dancing Script"'

  /** A copy of the canvas cut to its ink plus a margin, as a PNG data URL (so the stamp fills its box); null when blank. */
  function trimmed(source, margin = 8) {
    const { width, height } = source
    const pixels = source.getContext('2d').getImageData(0, 0, width, height).data
    let top = height; let left = width; let right = -1; let bottom = -1
    for (let y = 0; y < height; y++) {
      for (let x = 0; x < width; x++) {
        if (pixels[(y * width + x) * 4 + 3] > 0) {
          if (x < left) left = x
          if (x > right) right = x
          if (y < top) top = y
          if (y > bottom) bottom = y
        }
      }
    }
    if (right < 0) return null
    left = Math.max(0, left - margin); top = Math.max(0, top - margin)
    right = Math.min(width - 1, right + margin); bottom = Math.min(height - 1, bottom + margin)
    const out = document.createElement('canvas')
    out.width = right - left + 1
    out.height = bottom - top + 1
    out.getContext('2d').drawImage(source, left, top, out.width, out.height, 0, 0, out.width, out.height)
    return out.toDataURL('image/png')
  }

  /** A signature_pad on `canvas` that survives window resizes; image() is the trimmed drawing. */
  function createPad(canvas) {
    const pad = new window.SignaturePad(canvas, { penColor: INK, minWidth: 0.8, maxWidth: 2.6 })
    function fit() {
      // Backing store at device pixels, so the strokes are sharp; resizing clears, so keep the data.
      const data = pad.toData()
      const ratio = Math.max(window.devicePixelRatio || 1, 1)
      canvas.width = canvas.offsetWidth * ratio
      canvas.height = canvas.offsetHeight * ratio
      canvas.getContext('2d').scale(ratio, ratio)
      pad.clear()
      pad.fromData(data)
    }
    window.addEventListener('resize', fit)
    fit()
    return {
      pad,
      fit,
      clear: () => pad.clear(),
      isEmpty: () => pad.isEmpty(),
      image: () => trimmed(canvas) ?? pad.toDataURL('image/png'),
    }
  }

  /** The name written in the handwriting face, trimmed, as a PNG data URL; null for an empty name. */
  async function typedImage(name) {
    const text = name.trim()
    if (!text) return null
    const size = 96
    const font = `${size}px ${TYPED_FONT}`
    // The face is loaded on demand; drawing before it is there would use a fallback font.
    await document.fonts.load(font, text)
    const canvas = document.createElement('canvas')
    const ctx = canvas.getContext('2d')
    ctx.font = font
    canvas.width = Math.ceil(ctx.measureText(text).width + size)
    canvas.height = Math.ceil(size * 1.8)
    ctx.font = font
    ctx.fillStyle = INK
    ctx.textBaseline = 'middle'
    ctx.fillText(text, size / 2, canvas.height / 2)
    return trimmed(canvas)
  }

  window.signatureDrawing = { createPad, trimmed, typedImage, TYPED_FONT }
})()
