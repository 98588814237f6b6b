// The PDF worker's half of B-LT / B-LTA: the validation data the main thread gathered goes in a
// /DSS update, then a document timestamp from the worker's configured TSAs seals both. Two
// incremental updates, so every earlier revision stays a byte-for-byte prefix.
import { ERR_PDF_NO_CHANGES_ALLOWED } from '../pdf/errors.ts'
import { continueAfter, openForUpdate } from '../pdf/open-for-update.ts'
import { timestampSourceFor, type TimestampSource } from '../timestamps/timestamp-source.ts'
import { appendDocumentTimestamp } from './append-document-timestamp.ts'
import { appendDss } from './append-dss.ts'
import { isEmpty, type ValidationData } from './validation-data.ts'

export interface LongTermValidationOptions {
  /** Absent: the worker's configured source; null: none, so the document gets its DSS only (B-LT). */
  timestamps?: TimestampSource | null
  /** The certification's P, as collectValidationNeeds read it: P=1 forbids both updates. */
  permission: number | null
}

export interface LongTermValidationResult {
  pdf: Uint8Array
  dssAdded: boolean
  documentTimestamp: boolean
}

export async function appendLongTermValidation(pdf: Uint8Array, data: ValidationData, options: LongTermValidationOptions): Promise<LongTermValidationResult> {
  if (options.permission === 1) throw ERR_PDF_NO_CHANGES_ALLOWED('The PDF is certified with "no changes allowed": a DSS or a document timestamp would break the certification')
  const dssAdded = !isEmpty(data)
  const source = timestampSourceFor(options.timestamps)
  if (!dssAdded && !source) return { pdf, dssAdded, documentTimestamp: false }
  // One parse for both updates: the timestamp's update goes on from the DSS's (a 100-page,
  // 10-signature file took 8-20 ms a parse; docs/ltv-notes.md).
  const opened = await openForUpdate(pdf)
  const withDss = dssAdded ? await appendDss(pdf, data, opened) : pdf
  if (!source) return { pdf: withDss, dssAdded, documentTimestamp: false }
  const next = dssAdded ? continueAfter(opened, withDss) : opened
  return { pdf: await appendDocumentTimestamp(withDss, source, next), dssAdded, documentTimestamp: true }
}
