type Params = Record<string, string | number>
type Query = Record<string, string | number | undefined>

const NO_PARAMS: Params = Object.freeze({})

/**
 * The names of one panel's routes, collected by an onRoute hook, and url() over them.
 * Templates and scripts ask for a name, so a route can move without hunting for its path.
 */
export class NamedRoutes {
  readonly #paths = new Map<string, string>()
  /** Each pattern split once into literal parts and parameter names (even: literal, odd: name). */
  readonly #compiled = new Map<string, string[]>()

  add(name: string, routePath: string): void {
    const known = this.#paths.get(name)
    // Fastify registers a prefixed '/' both with and without the trailing slash: keep the bare one.
    if (known === undefined || known === routePath + '/') {
      this.#paths.set(name, routePath)
      this.#compiled.delete(name)
      return
    }
    if (known !== routePath && known + '/' !== routePath) throw new Error(`Route name "${name}" is already used by ${known}; cannot give it to ${routePath}`)
  }

  has(name: string): boolean {
    return this.#paths.has(name)
  }

  url(name: string, params: Params = NO_PARAMS, query?: Query): string {
    const pattern = this.#paths.get(name)
    if (pattern === undefined) throw new Error(`No route named "${name}" in this panel`)
    let parts = this.#compiled.get(name)
    if (!parts) {
      parts = pattern.split(/:([A-Za-z0-9_]+)/)
      this.#compiled.set(name, parts)
    }
    let path = parts[0]!
    for (let i = 1; i < parts.length; i += 2) {
      const key = parts[i]!
      const value = params[key]
      if (value === undefined) throw new Error(`Route "${name}" needs the parameter "${key}"`)
      path += encodeURIComponent(String(value)) + parts[i + 1]!
    }
    // Most links carry no query (a table asks for two per row): no object made, none walked.
    if (query === undefined) return path
    let empty = true
    for (const key in query) if (query[key] !== undefined && query[key] !== '') { empty = false; break }
    if (empty) return path
    const search = new URLSearchParams()
    for (const [key, value] of Object.entries(query)) if (value !== undefined && value !== '') search.set(key, String(value))
    const qs = search.toString()
    return qs ? `${path}?${qs}` : path
  }
}
