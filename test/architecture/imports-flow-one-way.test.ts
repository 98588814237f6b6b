// Arrows point one way (DESIGN.md): host-app -> panels -> plugins -> core. A host (host-app,
// panels, examples) reaches the framework and the signature plugin only through their public
// entry points, core/index.ts and plugins/signature/index.ts.
import { readdir, readFile } from 'node:fs/promises'
import path from 'node:path'
import t from 'tap'
import { PROJECT_ROOT } from '../../config/app.ts'

const LAYERS = ['core', 'plugins', 'panels', 'host-app'] as const
const SCANNED = [...LAYERS, 'examples']
const HOSTS = new Set(['host-app', 'panels', 'examples'])
const SIGNATURE_ENTRY = 'plugins/signature/index.ts'
const CORE_ENTRY = 'core/index.ts'
// Static imports, re-exports, side-effect imports and dynamic import() with a literal.
const SPECIFIER = /(?:\bfrom\s*|\bimport\s*\(\s*|^\s*import\s+)['"]([^'"]+)['"]/gm

async function sourceFiles(dir: string): Promise<string[]> {
  const entries = await readdir(path.join(PROJECT_ROOT, dir), { withFileTypes: true }).catch(() => [])
  const files: string[] = []
  for (const entry of entries) {
    const relative = `${dir}/${entry.name}`
    if (entry.isDirectory()) {
      // An example's own tests may use the project's test fixtures; the example itself may not.
      const exampleTests = dir.startsWith('examples/') && entry.name === 'test'
      if (entry.name !== 'node_modules' && !exampleTests) files.push(...await sourceFiles(relative))
    } else if (/\.(ts|mts|js|mjs)$/.test(entry.name) && !entry.name.endsWith('.d.ts')) {
      files.push(relative)
    }
  }
  return files
}

/** Project-relative targets of a file's relative imports (packages are not layers). */
async function importsOf(file: string): Promise<string[]> {
  const text = await readFile(path.join(PROJECT_ROOT, file), 'utf8')
  return [...text.matchAll(SPECIFIER)]
    .map((m) => m[1]!)
    .filter((s) => s.startsWith('.'))
    .map((s) => path.posix.normalize(path.posix.join(path.posix.dirname(file), s)))
}

const layerOf = (file: string) => file.split('/')[0]!
const rank = (layer: string) => (LAYERS as readonly string[]).indexOf(layer)

/** Why `from` may not import `to`, or null when it may. */
export function violation(from: string, to: string): string | null {
  const source = layerOf(from)
  const target = layerOf(to)
  if (source === 'examples') {
    if (target === 'examples') return null
    if (target === 'core') return to === CORE_ENTRY ? null : `an example imports the framework through ${CORE_ENTRY} only`
    if (target === 'plugins') return to === SIGNATURE_ENTRY ? null : 'an example imports only public entry points'
    return `an example imports only public entry points, not ${target}`
  }
  if (target === 'examples') return 'nothing imports an example'
  if (target === 'config') return source === 'host-app' ? null : 'only host-app loads config'
  if (rank(source) >= 0 && rank(target) > rank(source)) return `${source} may not import ${target} (host-app -> panels -> plugins -> core)`
  if (HOSTS.has(source) && to.startsWith('plugins/signature/') && to !== SIGNATURE_ENTRY) return `a host imports the signature plugin through ${SIGNATURE_ENTRY} only`
  if (HOSTS.has(source) && target === 'core' && to !== CORE_ENTRY) return `a host imports the framework through ${CORE_ENTRY} only`
  return null
}

t.test('the rule itself', async (t) => {
  t.equal(violation('core/panel/panel.ts', 'plugins/signature/index.ts'), 'core may not import plugins (host-app -> panels -> plugins -> core)')
  t.equal(violation('plugins/signature/signature-plugin.ts', 'panels/app.ts'), 'plugins may not import panels (host-app -> panels -> plugins -> core)')
  t.equal(violation('panels/app.ts', 'host-app/app.ts'), 'panels may not import host-app (host-app -> panels -> plugins -> core)')
  t.equal(violation('host-app/app.ts', 'plugins/signature/signature-plugin.ts'), `a host imports the signature plugin through ${SIGNATURE_ENTRY} only`)
  t.equal(violation('panels/app.ts', 'plugins/signature/sessions/inbox-plugin.ts'), `a host imports the signature plugin through ${SIGNATURE_ENTRY} only`)
  t.equal(violation('examples/minimal-host/app.ts', 'host-app/app.ts'), 'an example imports only public entry points, not host-app')
  t.equal(violation('plugins/signature/index.ts', 'config/signature.ts'), 'only host-app loads config')
  t.equal(violation('host-app/app.ts', 'plugins/signature/index.ts'), null)
  t.equal(violation('host-app/app.ts', 'core/panel/panel.ts'), `a host imports the framework through ${CORE_ENTRY} only`)
  t.equal(violation('panels/admin.ts', 'core/access/index.ts'), `a host imports the framework through ${CORE_ENTRY} only`)
  t.equal(violation('examples/minimal-host/app.ts', 'core/panel/panel.ts'), `an example imports the framework through ${CORE_ENTRY} only`)
  t.equal(violation('host-app/app.ts', 'core/index.ts'), null)
  t.equal(violation('examples/minimal-host/app.ts', 'core/index.ts'), null)
  t.equal(violation('plugins/signature/signature-plugin.ts', 'core/panel/panel.ts'), null, 'the plugin is part of the framework\'s side')
  t.equal(violation('plugins/signature/signature-plugin.ts', 'plugins/signature/signer/signer-routes.ts'), null)
})

t.test('no import runs against host-app -> panels -> plugins -> core', async (t) => {
  const files = (await Promise.all(SCANNED.map(sourceFiles))).flat()
  t.ok(files.length > 100, `scanned ${files.length} files`)
  const problems: string[] = []
  for (const file of files) {
    for (const target of await importsOf(file)) {
      const why = violation(file, target)
      if (why) problems.push(`${file} -> ${target}: ${why}`)
    }
  }
  t.same(problems, [], problems.join('\n'))
})
