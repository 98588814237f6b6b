// npm start runs JavaScript compiled from the sources by this file (its prestart step), not the
// sources through tsx. tsx's loader is a second V8 isolate on a thread of its own, source maps
// decoded for every module, and a message round trip to that thread on every import(); compiled,
// the process started at 100-117 MiB instead of 132-166 MiB (10 s after it listens, this
// machine, issue 22). Tests and tools keep running the sources through tsx; the compile is
// esbuild's, the same transform tsx applies, file by file, so the output keeps the sources' shape.
import { transform } from 'esbuild'
import { copyFile, mkdir, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { pathToFileURL } from 'node:url'
import { PROJECT_ROOT } from '../config/app.ts'

/** The folders npm start's process loads code and views from (bench, bin, test and examples stay sources). */
export const COMPILED_FOLDERS = ['core', 'plugins', 'panels', 'host-app', 'config'] as const

/** What the package ships (npm pack, bin/build-package.ts): the framework and its plugin, with the assets the views link. */
export const PACKAGED_FOLDERS = ['core', 'plugins', 'public'] as const

// A relative module specifier written with its .ts extension (allowImportingTsExtensions): in
// imports, in import(), and in `new URL('./x-worker.ts', import.meta.url)` for worker modules.
const TS_SPECIFIER = /(['"])(\.{1,2}\/[^'"\n]*?)\.ts\1/g
const RELATIVE_SPECIFIER = /(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+|\bnew URL\(\s*)(['"])(\.{1,2}\/[^'"\n]+)\1/g

export interface CompileResult {
  outDir: string
  files: number
  copied: number
  ms: number
}

/**
 * Compiles the folders into `outDir` (dist/ by default) beside a copy of every other file they
 * hold (views, scripts, fonts), then swaps the new tree in whole, so that a process starting from
 * the old tree never sees half of the new one. Refuses a tree whose relative imports do not all
 * resolve: npm start stops with the file and the specifier rather than at the first request.
 * `root`: the checkout whose folders are compiled; `folders`: which of its folders.
 */
export async function compileForStart(outDir = path.join(PROJECT_ROOT, 'dist'), root = PROJECT_ROOT, folders: readonly string[] = COMPILED_FOLDERS): Promise<CompileResult> {
  const started = performance.now()
  const tsconfig = JSON.parse(await readFile(path.join(root, 'tsconfig.json'), 'utf8')) as { compilerOptions: Record<string, unknown> }
  const staging = `${outDir}.tmp-${process.pid}`
  await rm(staging, { recursive: true, force: true })
  const written = new Set<string>()
  // Every compiled module's code, kept to check its imports without reading it back.
  const modules = new Map<string, string>()
  let files = 0
  let copied = 0
  try {
    for (const folder of folders) {
      const entries = await readdir(path.join(root, folder), { recursive: true, withFileTypes: true }).catch((error: NodeJS.ErrnoException) => {
        if (error.code === 'ENOENT') return []
        throw error
      })
      await Promise.all(entries.filter((entry) => entry.isFile()).map(async (entry) => {
        // Type declarations have nothing to run.
        if (entry.name.endsWith('.d.ts')) return
        const source = path.join(entry.parentPath, entry.name)
        const target = path.join(staging, path.relative(root, source))
        await mkdir(path.dirname(target), { recursive: true })
        if (!entry.name.endsWith('.ts')) {
          await copyFile(source, target)
          written.add(target)
          if (entry.name.endsWith('.mjs') || entry.name.endsWith('.js')) modules.set(target, await readFile(source, 'utf8'))
          copied++
          return
        }
        const output = target.slice(0, -3) + '.js'
        const result = await transform(await readFile(source, 'utf8'), {
          loader: 'ts',
          format: 'esm',
          target: `node${process.versions.node.split('.')[0]}`,
          tsconfigRaw: { compilerOptions: tsconfig.compilerOptions },
          // Stack traces name the .ts line under `node --enable-source-maps`; off by default
          // because decoding every module's map is a cost at start that tsx paid.
          sourcemap: 'external',
          sourcesContent: false,
          sourcefile: path.relative(path.dirname(output), source),
        })
        const code = result.code.replace(TS_SPECIFIER, '$1$2.js$1')
        await writeFile(output, `${code}//# sourceMappingURL=${path.basename(output)}.map\n`)
        await writeFile(`${output}.map`, result.map)
        written.add(output)
        modules.set(output, code)
        files++
      }))
    }
    checkRelativeImports(modules, written)
    // Swap: the old tree moves aside first, so dist/ is either the old tree or the new one.
    const old = `${outDir}.old-${process.pid}`
    await rename(outDir, old).catch((error: NodeJS.ErrnoException) => { if (error.code !== 'ENOENT') throw error })
    await rename(staging, outDir)
    await rm(old, { recursive: true, force: true })
  } catch (error) {
    await rm(staging, { recursive: true, force: true })
    throw error
  }
  return { outDir, files, copied, ms: Math.round(performance.now() - started) }
}

function checkRelativeImports(modules: Map<string, string>, written: Set<string>): void {
  const missing: string[] = []
  for (const [file, code] of modules) {
    for (const [, , specifier] of code.matchAll(RELATIVE_SPECIFIER)) {
      if (!written.has(path.resolve(path.dirname(file), specifier!))) missing.push(`${file}: ${specifier}`)
    }
  }
  if (missing.length > 0) throw new Error(`compile-for-start: relative imports that resolve to no compiled file:\n${missing.sort().join('\n')}`)
}

if (import.meta.url === pathToFileURL(process.argv[1]!).href) {
  const result = await compileForStart()
  process.stderr.write(`compiled ${result.files} TypeScript files (and copied ${result.copied} others) to ${path.relative(process.cwd(), result.outDir) || '.'} in ${result.ms} ms\n`)
}
