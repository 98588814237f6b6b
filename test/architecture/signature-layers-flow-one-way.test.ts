// Inside plugins/signature/ imports flow one way too (DESIGN.md): foundation -> primitives (PDF,
// DER, crypto) -> contracts -> table types -> services -> routes and pages -> the plugin's entry.
// The layers are defined in signature-layers.ts; type-only imports count as imports (a lower layer
// naming a higher layer's type changes when it does), and so does a worker module named by URL.
import t from 'tap'
import { PLUGIN, pluginFiles, pluginImports, stronglyConnected, unitGraph, type ImportEdge } from './signature-import-graph.ts'
import { KNOWN_CYCLES, layeredUnitOf, layerOf, rank } from './signature-layers.ts'

/** Imports into a higher layer, as "from (layer) -> to (layer)". */
function upwardImports(edges: readonly ImportEdge[]): string[] {
  return edges.flatMap((edge) => {
    const from = layerOf(edge.from)
    const to = layerOf(edge.to)
    return from && to && rank(to) > rank(from) ? [`${edge.from} (${from}) -> ${edge.to} (${to})${edge.typeOnly ? ', type only' : ''}`] : []
  })
}

/** Cycles between units (folders, split by layer where they hold several), each as its sorted units. */
function cycles(edges: readonly ImportEdge[]): string[][] {
  return stronglyConnected(unitGraph(edges, layeredUnitOf)).filter((component) => component.length > 1)
}

const edge = (from: string, to: string, typeOnly = false): ImportEdge => ({ from: `${PLUGIN}/${from}`, to: `${PLUGIN}/${to}`, typeOnly })

t.test('the rule itself', async (t) => {
  t.equal(layerOf(`${PLUGIN}/pdf/sign-document.ts`), 'primitives')
  t.equal(layerOf(`${PLUGIN}/sessions/session-sign.ts`), 'services')
  t.equal(layerOf(`${PLUGIN}/sessions/sessions-api.ts`), 'routes', 'a feature\'s API is a route, whatever its folder')
  t.equal(layerOf(`${PLUGIN}/sessions/session-tables.ts`), 'schema')
  t.equal(layerOf(`${PLUGIN}/pdf-worker-tasks.ts`), 'entry')
  t.equal(layerOf(`${PLUGIN}/a-folder-nobody-placed/x.ts`), undefined)
  t.same(upwardImports([edge('pdf/pdf-worker-tasks.ts', 'verify/verify-pdf.ts')]),
    [`${PLUGIN}/pdf/pdf-worker-tasks.ts (primitives) -> ${PLUGIN}/verify/verify-pdf.ts (services)`], 'a primitive reaching into a service')
  t.equal(upwardImports([edge('library/signature-image.ts', 'pdf-worker-pool.ts', true)]).length, 1, 'a type-only import counts')
  t.same(upwardImports([edge('sessions/sessions-api.ts', 'sessions/session-sign.ts'), edge('signing/signature-manager.ts', 'pdf/sign-document.ts')]), [], 'down and level are fine')
  t.same(cycles([edge('outbox/a.ts', 'mail/b.ts'), edge('mail/b.ts', 'outbox/c.ts')]), [['mail', 'outbox']], 'a cycle within a layer is found')
  t.same(cycles([edge('sessions/sessions-api.ts', 'designer/d.ts'), edge('designer/d.ts', 'sessions/s.ts')]), [], 'a folder\'s routes and its service are two units')
})

t.test('the layer table places every file of the plugin', async (t) => {
  const files = await pluginFiles()
  t.ok(files.length > 200, `${files.length} files`)
  t.same(files.filter((file) => !layerOf(file)), [], 'a new folder or root file gets its layer in signature-layers.ts')
})

t.test('no file of plugins/signature imports a file of a higher layer', async (t) => {
  const edges = await pluginImports()
  t.ok(edges.length > 500, `${edges.length} imports scanned`)
  const problems = upwardImports(edges)
  t.same(problems, [], problems.join('\n'))
})

t.test('no cycle between the folders of plugins/signature but the known ones', async (t) => {
  const found = cycles(await pluginImports()).map((units) => units.join(', '))
  t.same(found, KNOWN_CYCLES.map((known) => [...known.units].sort().join(', ')),
    'a new cycle is broken, not listed; a known one that is gone leaves KNOWN_CYCLES')
})
