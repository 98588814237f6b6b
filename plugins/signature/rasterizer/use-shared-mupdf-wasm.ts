// Imported by the page-image worker before mupdf: when the pool handed over mupdf's compiled
// WebAssembly (mupdf-wasm-module.ts), mupdf instantiates that instead of compiling its own.
// mupdf passes globalThis.$libmupdf_wasm_Module to its Emscripten loader as the Module settings,
// whose instantiateWasm hook replaces the loader's own fetch-and-compile.
import { workerData } from 'node:worker_threads'

const shared = (workerData?.shared as { mupdfWasm?: unknown } | undefined)?.mupdfWasm

export const mupdfWasmSource: 'parent' | 'own' = shared instanceof WebAssembly.Module ? 'parent' : 'own'

if (shared instanceof WebAssembly.Module) {
  ;(globalThis as Record<string, unknown>).$libmupdf_wasm_Module = {
    instantiateWasm(imports: WebAssembly.Imports, receive: (instance: WebAssembly.Instance) => void) {
      void WebAssembly.instantiate(shared, imports).then(receive)
      return {}
    },
  }
}
