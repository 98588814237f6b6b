import { createHash } from 'node:crypto'
import { toSegment } from '../../../core/storage/safe-path.ts'
import { isSignable } from '../contracts/signable.ts'

/**
 * Disk key of a sample: a digest of everything that shapes its bytes, so unchanged inputs keep
 * the same path (and mtime: page-image caches stay valid) and changed inputs get a new path.
 */
export function sampleFileKey(templateKey: string, inputs: unknown[]): string {
  const digest = createHash('sha256').update(JSON.stringify([templateKey, ...inputs])).digest('hex').slice(0, 20)
  return `samples/${templateKey}/${digest}.pdf`
}

/** Disk key of a record's production PDF: named after the record's id. */
export function documentFileKey(templateKey: string, record: unknown, data: unknown): string {
  return `documents/${templateKey}/${toSegment(recordId(record, data))}.pdf`
}

/** The record's id names its file; a record without one is named by its data instead. */
export function recordId(record: unknown, data: unknown): string {
  if (isSignable(record)) return record.getSignableId()
  const id = (record as { id?: unknown } | null)?.id
  if (typeof id === 'string' || typeof id === 'number') return String(id)
  return `data-${createHash('sha256').update(JSON.stringify(data) ?? '').digest('hex').slice(0, 20)}`
}
