import { readFile } from 'node:fs/promises'
import { createRequire } from 'node:module'
import path from 'node:path'

let compiled: Promise<WebAssembly.Module> | undefined

/**
 * mupdf's WebAssembly, compiled once per process and shared with every page-image worker (a
 * compiled module crosses threads without a copy). Each worker compiled its own before: about 1 s
 * of CPU per worker start, most of a cold page image. Compiled on the first page asked for, not at
 * boot, so a server that renders nothing never holds it.
 */
export function mupdfWasmModule(): Promise<WebAssembly.Module> {
  compiled ??= (async () => {
    // mupdf's package exports only its entry: its .wasm is found beside it.
    const entry = createRequire(import.meta.url).resolve('mupdf')
    return WebAssembly.compile(await readFile(path.join(path.dirname(entry), 'mupdf-wasm.wasm')))
  })()
  compiled.catch(() => { compiled = undefined })
  return compiled
}
