import { createHash } from 'node:crypto'
import { readFile } from 'node:fs/promises'
import path from 'node:path'
import { Eta } from 'eta'

/** Turns a view name into HTML; the only place that knows views are Eta files. */
export interface ViewEngine {
  render(view: string, data: Record<string, unknown>): Promise<string>
  /** Changes whenever the view's file changes: part of a sample's cache identity. */
  fingerprint(view: string): Promise<string>
}

// A dotted name ('pdf.daily-time-record') is a path under the views root; every segment is
// plain, so a view name can never point outside it.
const VIEW_NAME = /^[a-z0-9_-]+(\.[a-z0-9_-]+)*$/

export function isValidViewName(view: unknown): view is string {
  return typeof view === 'string' && view.length <= 200 && VIEW_NAME.test(view)
}

export function viewFile(root: string, view: string): string {
  if (!isValidViewName(view)) throw new Error(`Invalid view name ${JSON.stringify(view)}`)
  return path.join(root, ...view.split('.')) + '.eta'
}

export function createEtaViewEngine(root: string): ViewEngine {
  // No template cache: PDFs are rendered rarely and a stale view is worse than a re-read.
  const eta = new Eta({ views: root, autoEscape: true, cache: false })
  return {
    async render(view, data) {
      const file = viewFile(root, view)
      return eta.renderAsync(path.relative(root, file).replace(/\.eta$/, ''), data)
    },
    async fingerprint(view) {
      return createHash('sha256').update(await readFile(viewFile(root, view))).digest('hex')
    },
  }
}
