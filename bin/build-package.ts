// npm pack's prepack step: the package ships built JavaScript and type declarations, because Node
// does not strip types from files under node_modules. The JavaScript is compiled file by file
// as for npm start (compile-for-start.ts), views and assets beside it; tsc writes the .d.ts of
// both entry points (core/index.ts, plugins/signature/index.ts) and what they reach into the
// same tree, their `.ts` specifiers rewritten to `.js` as in the JavaScript.
import { execFile } from 'node:child_process'
import { readdir, readFile, rm, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { pathToFileURL } from 'node:url'
import { promisify } from 'node:util'
import { PROJECT_ROOT } from '../config/app.ts'
import { compileForStart, PACKAGED_FOLDERS } from './compile-for-start.ts'

const run = promisify(execFile)
const TS_SPECIFIER = /(['"])(\.{1,2}\/[^'"\n]*?)\.ts\1/g

/** Where the package's files are built; package.json's `exports` and `files` name it. */
export const PACKAGE_BUILD = path.join(PROJECT_ROOT, 'build')

export async function buildPackage(outDir = PACKAGE_BUILD): Promise<{ files: number; declarations: number; ms: number }> {
  const started = performance.now()
  const compiled = await compileForStart(outDir, PROJECT_ROOT, PACKAGED_FOLDERS)
  const tsconfig = path.join(PROJECT_ROOT, 'tsconfig.package.json')
  await writeFile(tsconfig, JSON.stringify({
    extends: './tsconfig.json',
    compilerOptions: { noEmit: false, declaration: true, emitDeclarationOnly: true, rootDir: '.', outDir: path.relative(PROJECT_ROOT, outDir) },
    include: [],
    files: ['core/index.ts', 'plugins/signature/index.ts'],
  }))
  try {
    await run(process.execPath, [path.join(PROJECT_ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', tsconfig], { cwd: PROJECT_ROOT })
  } catch (error) {
    throw new Error(`build-package: tsc failed:\n${(error as { stdout?: string }).stdout ?? error}`)
  } finally {
    await rm(tsconfig, { force: true })
  }
  let declarations = 0
  for (const entry of await readdir(outDir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile() || !entry.name.endsWith('.d.ts')) continue
    const file = path.join(entry.parentPath, entry.name)
    await writeFile(file, (await readFile(file, 'utf8')).replace(TS_SPECIFIER, '$1$2.js$1'))
    declarations++
  }
  return { files: compiled.files, declarations, ms: Math.round(performance.now() - started) }
}

if (import.meta.url === pathToFileURL(process.argv[1]!).href) {
  const result = await buildPackage()
  process.stderr.write(`built the package: ${result.files} JavaScript files and ${result.declarations} declarations in build/ in ${result.ms} ms\n`)
}
