import { existsSync } from 'node:fs'
import path from 'node:path'
import { defineError } from '../http/errors.ts'

/** A view named to reply.view() that is not a file under the views root: a mistake in the code, so a 500 with a code. */
export const ERR_VIEW_NOT_FOUND = defineError('ERR_VIEW_NOT_FOUND', 500, 'The view does not exist')

/**
 * reply.view(name) as @fastify/view hosts write it: a name relative to the views root, with or
 * without '.eta'. Resolved once per name (names come from code, so there are few), then the file
 * goes through the same compiled-view cache as reply.page(). A name that climbs out of the root
 * is refused like a missing one, before anything is read.
 */
export function viewByName(root: string, cache: boolean) {
  const files = new Map<string, string>()
  return (name: string): string => {
    const known = files.get(name)
    if (known) return known
    if (typeof name !== 'string' || name === '') throw ERR_VIEW_NOT_FOUND('reply.view() needs the name of a view')
    const file = path.resolve(root, name.endsWith('.eta') ? name : `${name}.eta`)
    const relative = path.relative(root, file)
    if (relative.startsWith('..') || path.isAbsolute(relative) || !existsSync(file)) {
      throw ERR_VIEW_NOT_FOUND(`No view ${JSON.stringify(name)} under the views root`)
    }
    if (cache) files.set(name, file)
    return file
  }
}
