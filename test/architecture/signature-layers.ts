// The layers of plugins/signature/, bottom to top (DESIGN.md, "Folders and what may import
// what"): the one place they are defined. A file may import files of its own layer or of a lower
// one, never of a higher one; test/architecture/signature-layers-flow-one-way.test.ts enforces it.
// A file's layer is its folder's (or, at the plugin's root, its own), except where a folder
// keeps files of another layer beside its service: a feature's HTTP API and pages (routes), its
// table types (schema), or its wiring (entry). Those are named below, by pattern or by path.
const PLUGIN = 'plugins/signature'

export const LAYERS = ['foundation', 'primitives', 'contracts', 'schema', 'services', 'routes', 'entry'] as const
export type Layer = typeof LAYERS[number]

/** Folders, and files at the plugin's root, by layer. */
const UNITS: Record<Layer, readonly string[]> = {
  // Leaves every layer may use: error codes, permission and route names, shared browser modules.
  foundation: ['errors.ts', 'permissions.ts', 'route-names.ts', 'public-assets.ts', 'background-pass.ts', 'ordered-id.ts', 'public'],
  // PDF, DER and crypto: bytes in, bytes out; no database, no HTTP, no service. (pki's readers,
  // builders and the in-process TSA are here because timestamping inside the PDF worker uses them.)
  primitives: ['pdf', 'certificates', 'timestamps', 'pki', 'rasterizer'],
  // What a host writes: templates, slots, signables, and the schemas that check them.
  contracts: ['contracts'],
  // Table types (files by pattern below), joined into one Kysely schema by database/schema.ts.
  schema: [],
  services: ['templates', 'rendering', 'registry', 'database', 'library', 'signing', 'signables', 'sessions', 'ltv', 'verify',
    'outbox', 'mail', 'webhooks', 'storage', 'documents', 'signature-config.ts', 'signature-metrics.ts', 'signature-services-type.ts'],
  // HTTP routes, pages, panel plugins: only the three folders below, and files by pattern.
  routes: ['admin', 'designer', 'signer', 'document-pages'],
  // What assembles the rest: the plugin, its app, its services, the PDF worker and its task table.
  entry: ['index.ts', 'signature-plugin.ts', 'signature-app.ts', 'signature-services.ts', 'create-template-registry.ts',
    'create-delivery.ts', 'pdf-worker.ts', 'pdf-worker-tasks.ts', 'pdf-worker-pool.ts'],
}

/** Files whose layer is not their folder's, by pattern (path inside the plugin). */
const PATTERNS: ReadonlyArray<readonly [RegExp, Layer, string]> = [
  [/^[^/]+\/[^/]+-(api|routes|pages|plugin)\.ts$/, 'routes', 'a feature folder keeps its HTTP API, pages and panel plugin beside its service'],
  [/^[^/]+\/[^/]+-tables\.ts$/, 'schema', 'a feature folder declares its tables\' row types'],
]

/** Files whose layer is not their folder's, by path inside the plugin. */
const FILES: Readonly<Record<string, Layer>> = {
  'database/schema.ts': 'schema',
  // The outbox's page and the dashboard's widgets of sessions.
  'mail/outbox-page.ts': 'routes',
  'sessions/session-widgets.ts': 'routes',
  // The one list of the plugin's migrations, each written beside its feature.
  'database/migrations/index.ts': 'entry',
  // The application's PKI over its issued_certificates table (the rest of pki/ is primitives).
  'pki/application-pki.ts': 'services',
  'pki/issued-certificates.ts': 'services',
}

const layerOfUnit = new Map<string, Layer>(LAYERS.flatMap((layer) => UNITS[layer].map((unit) => [unit, layer] as const)))

/** The layer of a project-relative file of the plugin; undefined when the table does not place it. */
export function layerOf(file: string): Layer | undefined {
  const inside = file.slice(PLUGIN.length + 1)
  if (FILES[inside]) return FILES[inside]
  for (const [pattern, layer] of PATTERNS) if (pattern.test(inside)) return layer
  const slash = inside.indexOf('/')
  return layerOfUnit.get(slash < 0 ? inside : inside.slice(0, slash))
}

export const rank = (layer: Layer) => LAYERS.indexOf(layer)

/**
 * The unit cycles are looked for between: a folder (or a root file), split by layer where the
 * folder holds files of more than one ("sessions", "sessions [routes]").
 */
export function layeredUnitOf(file: string): string {
  const inside = file.slice(PLUGIN.length + 1)
  const slash = inside.indexOf('/')
  const unit = slash < 0 ? inside : inside.slice(0, slash)
  const own = layerOfUnit.get(unit)
  const layer = layerOf(file)
  return layer && own && layer !== own ? `${unit} [${layer}]` : unit
}

/**
 * Cycles between units of one layer that are known, each with why it is there and what ends it.
 * Nothing else may form a cycle, and an import into a higher layer has no exception.
 */
export const KNOWN_CYCLES: ReadonlyArray<{ units: readonly string[]; reason: string }> = [
  {
    units: ['certificates', 'pdf', 'pki', 'timestamps'],
    reason: 'pdf/der.ts, the DER reader and writer every primitive uses, lives in pdf/, while pdf/ signs with certificates/ and timestamps/ '
      + '(which answer through pki/). It goes when DER moves out of pdf/ (DESIGN.md: ASN.1 through one maintained library).',
  },
]
