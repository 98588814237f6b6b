// What one uploaded document may cost the verifier, checked with a byte scan before it is queued
// (issue 35 item 11): reading every revision costs revisions x objects, so a 7 MB file with
// 20,000 updates held the only worker 15 s; past these limits it is refused at once.
import { countObjects, countRevisions } from '../pdf/count-pdf-structure.ts'
import { ERR_PDF_TOO_COSTLY_TO_VERIFY, ERR_PDF_TOO_MANY_OBJECTS, ERR_PDF_TOO_MANY_REVISIONS } from './errors.ts'

export interface VerifyLimits {
  maxRevisions: number
  maxObjects: number
  /** Revisions x objects. */
  maxRevisionObjects: number
}

export function assertWithinVerifyLimits(pdf: Uint8Array, limits: VerifyLimits): void {
  const revisions = countRevisions(pdf, limits.maxRevisions)
  if (revisions > limits.maxRevisions) {
    throw ERR_PDF_TOO_MANY_REVISIONS(`The PDF has more than ${limits.maxRevisions} revisions; the verifier reads at most ${limits.maxRevisions}`, { details: { limit: limits.maxRevisions } })
  }
  // Counting stops where either limit would refuse: the scan of a file past them stays short.
  const objectBound = Math.min(limits.maxObjects, Math.floor(limits.maxRevisionObjects / revisions))
  const objects = countObjects(pdf, objectBound)
  if (objects > limits.maxObjects) {
    throw ERR_PDF_TOO_MANY_OBJECTS(`The PDF has more than ${limits.maxObjects} objects; the verifier reads at most ${limits.maxObjects}`, { details: { limit: limits.maxObjects } })
  }
  if (objects > objectBound) {
    throw ERR_PDF_TOO_COSTLY_TO_VERIFY(`The PDF has ${revisions} revisions of more than ${objectBound} objects; the verifier reads at most ${limits.maxRevisionObjects} revisions x objects`, { details: { revisions, limit: limits.maxRevisionObjects } })
  }
}
