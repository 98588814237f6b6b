// Where a stamp image goes inside its box. The image keeps its aspect ratio (a stretched
// signature looks forged) and is centred in the box.
export interface Box {
  x: number
  y: number
  width: number
  height: number
}

export function fitImageInBox(image: { width: number; height: number }, box: Box): Box {
  const scale = Math.min(box.width / image.width, box.height / image.height)
  const width = image.width * scale
  const height = image.height * scale
  return { x: box.x + (box.width - width) / 2, y: box.y + (box.height - height) / 2, width, height }
}

/** Page boxes may be given with any two opposite corners; /Rect arrays likewise. */
export function normalizeRect([x1, y1, x2, y2]: number[]): Box {
  const [a = 0, b = 0, c = 0, d = 0] = [x1, y1, x2, y2]
  return { x: Math.min(a, c), y: Math.min(b, d), width: Math.abs(c - a), height: Math.abs(d - b) }
}
