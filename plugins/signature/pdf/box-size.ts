// The one minimum size of a signature box, wherever a box is accepted: the designer's save, the
// signer's placements, /api/sign, and the fields of a session (checked again when the engine
// stamps or creates them). A box of 1e-9 pt was accepted and gave a stamp nobody can see.
// The number lives in public/box-check.js, which the designer's fields use too.
import { MIN_BOX_POINTS } from '../public/box-check.js'
import { ERR_BOX_TOO_SMALL } from './errors.ts'

/** Smallest width and height of a box, in PDF points (README: "Limits"). */
export { MIN_BOX_POINTS }

export function assertBoxSize(box: { width: number; height: number }, label = 'the box'): void {
  if (!(box.width >= MIN_BOX_POINTS && box.height >= MIN_BOX_POINTS)) {
    throw ERR_BOX_TOO_SMALL(`${label}: ${box.width} x ${box.height} pt is smaller than the minimum of ${MIN_BOX_POINTS} x ${MIN_BOX_POINTS} pt`)
  }
}
