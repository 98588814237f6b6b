import { readFileSync } from 'node:fs'
import path from 'node:path'
import type { Eta } from 'eta'

export type CompiledView = (this: Eta, data: object, config: object) => string

/**
 * One compiled function per view file, looked up by its absolute path and called directly.
 * Rendering by name through @fastify/view made it, and Eta after it, resolve and check the path
 * on every request (plus a configure() and two object copies): a quarter of the server's time on
 * /dashboard. The root check runs once per file, when it is compiled.
 *
 * With `cache` off (development), every call reads and compiles the file again, so edits show on
 * reload.
 */
export function compiledViews(eta: Eta, root: string, cache: boolean) {
  const compiled = new Map<string, CompiledView>()

  const compile = (file: string): CompiledView => {
    const relative = path.relative(root, file)
    if (!path.isAbsolute(file) || relative.startsWith('..') || path.isAbsolute(relative)) {
      throw new Error(`View ${file} must be an absolute path under ${root}`)
    }
    const template = eta.compile(readFileSync(file, 'utf8'))
    // `filepath` lets a view include its neighbours by relative path ('./record-region').
    return function view(this: Eta, data: object, config: object) {
      return template.call(this, data, { ...config, filepath: file })
    }
  }

  return (file: string): CompiledView => {
    if (!cache) return compile(file)
    let view = compiled.get(file)
    if (!view) {
      view = compile(file)
      compiled.set(file, view)
    }
    return view
  }
}
