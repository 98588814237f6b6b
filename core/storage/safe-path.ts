import path from 'node:path'

export class UnsafePathError extends Error {
  constructor(key: string, reason: string) {
    super(`Refused storage key ${JSON.stringify(key)}: ${reason}`)
    this.name = 'UnsafePathError'
  }
}

// One allow-list instead of a deny-list of tricks: a segment is plain letters, digits, '.', '_',
// '-'. That rules out NUL bytes, backslashes, drive letters, '%' (so no encoded separator can be
// decoded later by somebody else) and every other surprise in one rule.
const SEGMENT = /^[A-Za-z0-9._-]+$/

/** Checks a disk key (segments joined by '/') without touching the file system. */
export function assertSafeKey(key: string): string[] {
  if (typeof key !== 'string' || key.length === 0) throw new UnsafePathError(String(key), 'empty')
  if (key.length > 1024) throw new UnsafePathError(key.slice(0, 40), 'longer than 1024 characters')
  if (key.startsWith('/')) throw new UnsafePathError(key, 'absolute')
  const segments = key.split('/')
  for (const segment of segments) {
    if (segment === '' || segment === '.' || segment === '..') throw new UnsafePathError(key, `segment ${JSON.stringify(segment)}`)
    if (!SEGMENT.test(segment)) throw new UnsafePathError(key, `segment ${JSON.stringify(segment)} has characters outside [A-Za-z0-9._-]`)
  }
  return segments
}

/**
 * Absolute path of `key` inside `root`. The final containment check is kept even though the
 * allow-list already makes escape impossible: it is what still holds if the rule is ever relaxed.
 */
export function resolveInside(root: string, key: string): string {
  const segments = assertSafeKey(key)
  const base = path.resolve(root)
  const full = path.resolve(base, ...segments)
  if (full !== base && !full.startsWith(base + path.sep)) throw new UnsafePathError(key, 'leaves the disk root')
  return full
}

/** Turns an id or key from outside into one safe path segment (for file names built from ids). */
export function toSegment(value: string): string {
  const cleaned = value.replace(/[^A-Za-z0-9._-]/g, '_').replace(/^\.+/, '_')
  return cleaned.length === 0 ? '_' : cleaned.slice(0, 200)
}
