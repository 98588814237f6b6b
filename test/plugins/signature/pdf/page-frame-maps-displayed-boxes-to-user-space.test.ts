// The one conversion (pdf/page-frame.ts), on numbers worked out by hand: where a displayed box's
// corners are in the page's user space for each quarter turn, with a CropBox off the origin,
// clipped to the MediaBox, and /UserUnit 2.
import { degrees, PDFDocument, PDFName, PDFNumber } from 'pdf-lib'
import t from 'tap'
import { frameOf, pageFrame, quarterTurn, toUserSpace, uprightImageMatrix } from '../../../../plugins/signature/pdf/page-frame.ts'

// Visible area x 50..550, y 100..740 (500 x 640) in user space.
const visible = { x: 50, y: 100, width: 500, height: 640 }
const box = { x: 10, y: 20, width: 100, height: 40 }

t.test('a displayed box in user space, for each quarter turn', async (t) => {
  const cases = [
    // Displayed 500 x 640: a shift by the crop origin.
    [0, { width: 500, height: 640 }, { x: 60, y: 120, width: 100, height: 40 }],
    // Displayed 640 x 500 (turned clockwise): displayed x runs up user y; displayed y runs left from user x = 550.
    [90, { width: 640, height: 500 }, { x: 550 - 60, y: 110, width: 40, height: 100 }],
    // Upside down: both axes run back from the far corner (550, 740).
    [180, { width: 500, height: 640 }, { x: 550 - 110, y: 740 - 60, width: 100, height: 40 }],
    // Turned anticlockwise: displayed x runs down user y from 740; displayed y runs right from user x = 50.
    [270, { width: 640, height: 500 }, { x: 70, y: 740 - 110, width: 40, height: 100 }],
  ] as const
  for (const [rotate, size, expected] of cases) {
    const frame = frameOf(visible, rotate)
    t.same({ width: frame.width, height: frame.height }, size, `${rotate}: displayed size`)
    t.same(toUserSpace(frame, box), expected, `${rotate}: the box in user space`)
  }
})

t.test('the image matrix keeps the image upright: its right is the displayed right, its top the displayed top', async (t) => {
  // Unit vectors of the image (right, up) in user space: turned with the page, they read upright.
  const directions = { 0: [[1, 0], [0, 1]], 90: [[0, 1], [-1, 0]], 180: [[-1, 0], [0, -1]], 270: [[0, -1], [1, 0]] } as const
  for (const rotate of [0, 90, 180, 270] as const) {
    const [a, b, c, d] = uprightImageMatrix(frameOf(visible, rotate), { x: 0, y: 0, width: 1, height: 1 })
    t.same([[a, b], [c, d]].map((v) => v.map((n) => n + 0)), directions[rotate], `${rotate}`)
  }
})

t.test('UserUnit scales displayed points down to user units; /Rotate is taken to the nearest quarter turn', async (t) => {
  const frame = frameOf(visible, 90, 2)
  t.same([frame.width, frame.height], [1280, 1000])
  t.same(toUserSpace(frame, { x: 20, y: 40, width: 200, height: 80 }), toUserSpace(frameOf(visible, 90), { x: 10, y: 20, width: 100, height: 40 }))
  t.same([-90, 450, 100, 359, 720].map(quarterTurn), [270, 90, 90, 0, 0])
})

t.test('a pdf-lib page: inherited /Rotate, CropBox clipped to the MediaBox, /UserUnit', async (t) => {
  const doc = await PDFDocument.create()
  const page = doc.addPage([612, 792])
  page.setCropBox(50, 100, 650, 640) // reaches past x = 612
  doc.catalog.Pages().set(PDFName.of('Rotate'), PDFNumber.of(270))
  page.node.set(PDFName.of('UserUnit'), PDFNumber.of(2))
  const frame = pageFrame(doc.getPage(0))
  t.same(frame.visible, { x: 50, y: 100, width: 562, height: 640 })
  t.equal(frame.rotate, 270, 'inherited from the page tree')
  t.same([frame.width, frame.height], [1280, 1124])
  const plain = doc.addPage([595, 842])
  plain.setRotation(degrees(0))
  t.same([pageFrame(plain).width, pageFrame(plain).height], [595, 842])
})
