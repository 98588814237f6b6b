// package.json says what a production install needs: every runtime dependency is imported by the
// app, the app imports nothing that only a development install has, and every devDependency is
// used by something (a test, a bench, a script), so none lingers after its last user is gone.
import { readdir, readFile } from 'node:fs/promises'
import { builtinModules } from 'node:module'
import path from 'node:path'
import t from 'tap'
import { PROJECT_ROOT } from '../../config/app.ts'

const RUN_TIME = ['core', 'plugins', 'panels', 'host-app', 'config', 'bin']
// examples/ (a second host, issue 16) may not exist yet: a missing folder reads as empty.
const EVERYTHING = [...RUN_TIME, 'test', 'bench', 'examples']
const SOURCE = /\.(ts|mts|mjs|js)$/
// Specifiers of static and dynamic imports, re-exports, require() and require.resolve(); a
// type-only import is erased before run time, so it does not count.
const SPECIFIER = /(?:^|[^.\w])(?:import|export)\s+(?!type\s)(?:[^'"]*?\sfrom\s+)?['"]([^'"]+)['"]|(?:import|require|require\.resolve)\(\s*['"]([^'"]+)['"]/gm

const packageJson = JSON.parse(await readFile(path.join(PROJECT_ROOT, 'package.json'), 'utf8')) as {
  dependencies: Record<string, string>
  devDependencies: Record<string, string>
  scripts: Record<string, string>
}

async function sourceFiles(folder: string): Promise<string[]> {
  const entries = await readdir(path.join(PROJECT_ROOT, folder), { recursive: true, withFileTypes: true }).catch(() => [])
  return entries.filter((e) => e.isFile() && SOURCE.test(e.name)).map((e) => path.join(e.parentPath, e.name))
}

function packageOf(specifier: string): string | undefined {
  if (specifier.startsWith('.') || specifier.startsWith('/') || specifier.startsWith('node:') || specifier.startsWith('file:')) return undefined
  const name = specifier.startsWith('@') ? specifier.split('/').slice(0, 2).join('/') : specifier.split('/')[0]!
  return builtinModules.includes(name) ? undefined : name
}

/** Package name -> the files (relative to the project) that import it. */
async function importers(folders: string[]): Promise<Map<string, string[]>> {
  const found = new Map<string, string[]>()
  for (const file of (await Promise.all(folders.map(sourceFiles))).flat()) {
    for (const match of (await readFile(file, 'utf8')).matchAll(SPECIFIER)) {
      const name = packageOf(match[1] ?? match[2]!)
      if (name) found.set(name, [...(found.get(name) ?? []), path.relative(PROJECT_ROOT, file)])
    }
  }
  return found
}

/** The commands a package puts in node_modules/.bin, for packages used only from scripts (tap, tsc). */
async function binsOf(name: string): Promise<string[]> {
  const manifest = JSON.parse(await readFile(path.join(PROJECT_ROOT, 'node_modules', name, 'package.json'), 'utf8')) as { bin?: string | Record<string, string> }
  if (!manifest.bin) return []
  return typeof manifest.bin === 'string' ? [name.split('/').pop()!] : Object.keys(manifest.bin)
}

t.test('every runtime dependency is imported by the app, and the app imports only runtime dependencies', async (t) => {
  const atRunTime = await importers(RUN_TIME)
  for (const name of Object.keys(packageJson.dependencies)) {
    t.ok(atRunTime.has(name), `${name} is imported by ${atRunTime.get(name)?.[0] ?? 'nothing at run time: drop it or move it to devDependencies'}`)
  }
  for (const [name, files] of atRunTime) {
    t.ok(Object.hasOwn(packageJson.dependencies, name), `${name}, imported by ${files[0]}, is in dependencies`)
  }
})

t.test('every devDependency is used by a test, a bench, a script or the type checker', async (t) => {
  const anywhere = await importers(EVERYTHING)
  const scripts = Object.values(packageJson.scripts).join(' ')
  for (const name of Object.keys(packageJson.devDependencies)) {
    const typesOnly = name.startsWith('@types/')
    const bins = await binsOf(name)
    const inScripts = bins.find((bin) => new RegExp(`(^|[\\s;&|])${bin}(\\s|$)`).test(scripts))
    t.ok(typesOnly || anywhere.has(name) || inScripts, `${name} is used (${anywhere.get(name)?.[0] ?? inScripts ?? (typesOnly ? 'types' : 'by nothing: drop it')})`)
  }
})
