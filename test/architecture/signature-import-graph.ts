// The folder-level import graph of plugins/signature/, read with TypeScript's parser (not a
// regex) so that `import type` and inline `type` specifiers are told apart from value imports.
// Type-only imports are counted as edges all the same: a lower layer naming a higher layer's
// type is coupled to it (it changes when the type does), even though nothing loads at run time.
// A worker module named by `new URL('./x.ts', import.meta.url)` is an edge too: the pool that
// names it loads it, in another thread.
// Run it (`node test/architecture/signature-import-graph.ts`) for the figures.
import { readdir, readFile } from 'node:fs/promises'
import path from 'node:path'
import { pathToFileURL } from 'node:url'
import ts from 'typescript'
import { PROJECT_ROOT } from '../../config/app.ts'
import { layeredUnitOf, layerOf, rank } from './signature-layers.ts'

export const PLUGIN = 'plugins/signature'

export interface ImportEdge {
  /** Project-relative files. */
  from: string
  to: string
  /** Only types cross (erased at run time). */
  typeOnly: boolean
}

/** The plugin's modules, project-relative: TypeScript, and the browser's JavaScript under public/ (some of it shared with the server). */
export async function pluginFiles(root = PROJECT_ROOT): Promise<string[]> {
  const entries = await readdir(path.join(root, PLUGIN), { recursive: true, withFileTypes: true })
  return entries
    .filter((entry) => entry.isFile() && /\.(ts|mts|js|mjs)$/.test(entry.name) && !entry.name.endsWith('.d.ts'))
    .map((entry) => path.posix.join(PLUGIN, path.relative(path.join(root, PLUGIN), path.join(entry.parentPath, entry.name)).split(path.sep).join('/')))
    .sort()
}

function isTypeOnly(node: ts.ImportDeclaration | ts.ExportDeclaration): boolean {
  if (ts.isImportDeclaration(node)) {
    const clause = node.importClause
    if (!clause) return false // a side-effect import runs the module
    if (clause.isTypeOnly) return true
    if (clause.name) return false
    const bindings = clause.namedBindings
    return !!bindings && ts.isNamedImports(bindings) && bindings.elements.length > 0 && bindings.elements.every((element) => element.isTypeOnly)
  }
  if (node.isTypeOnly) return true
  const clause = node.exportClause
  return !!clause && ts.isNamedExports(clause) && clause.elements.length > 0 && clause.elements.every((element) => element.isTypeOnly)
}

/** Every relative import of one file: import/export ... from, import(), and worker URLs. */
export function importsOfSource(file: string, text: string): ImportEdge[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, false, /\.m?js$/.test(file) ? ts.ScriptKind.JS : ts.ScriptKind.TS)
  const edges: ImportEdge[] = []
  const add = (specifier: string, typeOnly: boolean) => {
    if (!specifier.startsWith('.')) return
    edges.push({ from: file, to: path.posix.normalize(path.posix.join(path.posix.dirname(file), specifier)), typeOnly })
  }
  const visit = (node: ts.Node) => {
    if ((ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) {
      add(node.moduleSpecifier.text, isTypeOnly(node))
    } else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword && node.arguments[0] && ts.isStringLiteralLike(node.arguments[0])) {
      add(node.arguments[0].text, false)
    } else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument) && ts.isStringLiteral(node.argument.literal)) {
      add(node.argument.literal.text, true)
    } else if (ts.isNewExpression(node) && ts.isIdentifier(node.expression) && node.expression.text === 'URL' && node.arguments?.[0] && ts.isStringLiteralLike(node.arguments[0])
      && node.arguments[1]?.getText(source) === 'import.meta.url' && /\.m?ts$/.test(node.arguments[0].text)) {
      add(node.arguments[0].text, false)
    }
    ts.forEachChild(node, visit)
  }
  visit(source)
  return edges
}

/**
 * The unit the layers are drawn over: a folder of the plugin, or a file at its root (the root
 * holds both the entry and a few small shared modules, so each root file stands for itself).
 */
export function unitOf(file: string): string {
  const inside = file.slice(PLUGIN.length + 1)
  const slash = inside.indexOf('/')
  return slash < 0 ? inside : inside.slice(0, slash)
}

/** Edges between files of the plugin (imports leaving the plugin are not part of this graph). */
export async function pluginImports(root = PROJECT_ROOT): Promise<ImportEdge[]> {
  const edges: ImportEdge[] = []
  for (const file of await pluginFiles(root)) {
    const text = await readFile(path.join(root, file), 'utf8')
    edges.push(...importsOfSource(file, text).filter((edge) => edge.to.startsWith(`${PLUGIN}/`)))
  }
  return edges
}

/** unit -> units it imports (itself excluded); units are folders and root files unless `unit` says otherwise. */
export function unitGraph(edges: readonly ImportEdge[], unit: (file: string) => string = unitOf): Map<string, Set<string>> {
  const graph = new Map<string, Set<string>>()
  for (const edge of edges) {
    const from = unit(edge.from)
    const to = unit(edge.to)
    if (!graph.has(from)) graph.set(from, new Set())
    if (!graph.has(to)) graph.set(to, new Set())
    if (from !== to) graph.get(from)!.add(to)
  }
  return graph
}

/** Strongly connected components (Tarjan), biggest first; each sorted by name. */
export function stronglyConnected(graph: ReadonlyMap<string, ReadonlySet<string>>): string[][] {
  let next = 0
  const index = new Map<string, number>()
  const low = new Map<string, number>()
  const stack: string[] = []
  const onStack = new Set<string>()
  const components: string[][] = []
  const connect = (node: string) => {
    index.set(node, next)
    low.set(node, next)
    next++
    stack.push(node)
    onStack.add(node)
    for (const target of graph.get(node) ?? []) {
      if (!index.has(target)) {
        connect(target)
        low.set(node, Math.min(low.get(node)!, low.get(target)!))
      } else if (onStack.has(target)) {
        low.set(node, Math.min(low.get(node)!, index.get(target)!))
      }
    }
    if (low.get(node) === index.get(node)) {
      const component: string[] = []
      let member: string
      do {
        member = stack.pop()!
        onStack.delete(member)
        component.push(member)
      } while (member !== node)
      components.push(component.sort())
    }
  }
  for (const node of [...graph.keys()].sort()) if (!index.has(node)) connect(node)
  return components.sort((a, b) => b.length - a.length || a[0]!.localeCompare(b[0]!))
}

if (import.meta.url === pathToFileURL(process.argv[1]!).href) {
  const edges = await pluginImports()
  const graph = unitGraph(edges)
  const folders = [...graph.keys()].filter((unit) => !unit.endsWith('.ts'))
  const components = stronglyConnected(graph).filter((component) => component.length > 1)
  const crossUnit = edges.filter((edge) => unitOf(edge.from) !== unitOf(edge.to))
  console.log(`files: ${(await pluginFiles()).length}, units: ${graph.size} (${folders.length} folders), imports between units: ${crossUnit.length} (${crossUnit.filter((e) => e.typeOnly).length} type-only)`)
  for (const component of components) {
    console.log(`cycle of ${component.length} units (${component.filter((unit) => !unit.endsWith('.ts')).length} folders): ${component.join(' ')}`)
  }
  const upward = edges.filter((edge) => {
    const from = layerOf(edge.from)
    const to = layerOf(edge.to)
    return from && to && rank(to) > rank(from)
  })
  console.log(`imports into a higher layer: ${upward.length} (${upward.filter((e) => e.typeOnly).length} type-only); files the layer table does not place: ${edges.flatMap((e) => [e.from, e.to]).filter((f, i, all) => !layerOf(f) && all.indexOf(f) === i).join(' ') || 'none'}`)
  if (process.argv.includes('--upward')) for (const edge of upward) console.log(`  ${edge.from} (${layerOf(edge.from)}) -> ${edge.to} (${layerOf(edge.to)})${edge.typeOnly ? ' (type)' : ''}`)
  const layered = stronglyConnected(unitGraph(edges, (file) => layeredUnitOf(file))).filter((component) => component.length > 1)
  for (const component of layered) console.log(`layered cycle of ${component.length}: ${component.join(', ')}`)
  const why = process.argv.indexOf('--why')
  if (why > 0) {
    const [from, to] = process.argv.slice(why + 1, why + 3)
    for (const edge of crossUnit) {
      if (unitOf(edge.from) === from && (!to || unitOf(edge.to) === to)) console.log(`${edge.from} -> ${edge.to}${edge.typeOnly ? ' (type)' : ''}`)
    }
  }
  if (process.argv.includes('--edges')) {
    for (const [from, targets] of [...graph].sort()) console.log(`${from} -> ${[...targets].sort().join(' ')}`)
  }
}
