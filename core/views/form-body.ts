import type { FastifyInstance } from 'fastify'

export type FormBody = Record<string, string | string[]>

/**
 * Parses application/x-www-form-urlencoded bodies (what plain forms and htmx send) for the
 * routes of the context it is added to. Registered per page context, never at the root, so the
 * JSON API stays JSON-only. A key sent twice becomes an array.
 */
export function acceptFormBodies(app: FastifyInstance): void {
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_request, body, done) => {
    const result: FormBody = Object.create(null)
    for (const [key, value] of new URLSearchParams(body as string)) {
      const previous = result[key]
      if (previous === undefined) result[key] = value
      else result[key] = Array.isArray(previous) ? [...previous, value] : [previous, value]
    }
    done(null, result)
  })
}
