import type { Disk } from '../../../core/storage/disk.ts'
import type { TemplateLookup } from '../contracts/has-pdf-template.ts'
import type { PdfRenderer, PdfRendererClass } from '../contracts/pdf-renderer.ts'
import { isPdfTemplate, type PdfTemplate, type PdfTemplateClass, type RegisteredTemplate } from '../contracts/pdf-template.ts'
import { SlotDefinition } from '../contracts/slot-definition.ts'
import { ERR_RENDERER_UNAVAILABLE } from '../errors.ts'
import type { ViewEngine } from '../rendering/view-engine.ts'
import { normalizeSlots } from '../templates/normalize-slots.ts'
import { requireTemplate } from './require-template.ts'
import { documentFileKey, sampleFileKey } from '../templates/file-keys.ts'
import { assertTemplateKey, isValidTemplateKey } from '../templates/template-key.ts'
import { TemplateConfigError } from '../templates/template-config-error.ts'
import { ViewPdfTemplate, type ViewTemplateContext } from '../templates/view-pdf-template.ts'
import type { ViewTemplateEntry } from '../templates/view-template-entry.ts'

/** Anything the three ways in accept: an instance, a class, or a view entry that carries its key. */
export type TemplateSource = PdfTemplate | PdfTemplateClass | ({ key: string } & ViewTemplateEntry)

/**
 * Where a registration came from: shown in the admin list, useful when one replaces another.
 * 'fluent' is `Signatures.make(...).templates([...])`, the host's list on the app-level plugin.
 */
export type TemplateOrigin = 'config' | 'fluent' | 'runtime' | `panel:${string}`

export interface RegistryOptions {
  disk: Disk
  views: ViewEngine
  defaultRenderer: PdfRendererClass
  /** Renderers a config entry may name with a string (`renderer: 'pdf-lib'`). */
  renderers?: Record<string, PdfRendererClass>
}

/**
 * The one app-wide registry of PDF templates, keyed by template key. Registration is idempotent:
 * registering a key again replaces the earlier template (the last declaration wins), so a panel
 * or a plugin can override what the config declared.
 *
 * Why one registry for the whole app and not one per panel: a template key is stored in database
 * rows (slot placements, signatures) and names files on disk, so it must mean the same template
 * everywhere. Templates are therefore declared app-wide (config, the app-level plugin's fluent
 * list, or here at runtime), never by a panel, so no template depends on which panels boot or in
 * what order; each registration's origin is remembered for the admin list.
 */
export class PdfTemplateRegistry implements TemplateLookup {
  readonly #templates = new Map<string, RegisteredTemplate>()
  readonly #origins = new Map<string, TemplateOrigin>()
  readonly #renderers = new Map<PdfRendererClass, PdfRenderer>()
  readonly #refreshers: Array<() => Promise<void>> = []
  readonly #options: RegistryOptions
  readonly #context: ViewTemplateContext

  constructor(options: RegistryOptions) {
    this.#options = options
    this.#context = {
      disk: options.disk,
      views: options.views,
      renderer: (type) => this.renderer(type),
      sampleFile: sampleFileKey,
      documentFile: documentFileKey,
      rendererClass: (nameOrClass) => {
        if (nameOrClass === undefined) return options.defaultRenderer
        if (typeof nameOrClass === 'string') return Object.hasOwn(options.renderers ?? {}, nameOrClass) ? options.renderers![nameOrClass] : undefined
        return nameOrClass
      },
    }
  }

  /** The disk templates write their samples and documents to. */
  get disk(): Disk {
    return this.#options.disk
  }

  has(key: string): boolean {
    return this.#templates.has(key)
  }

  /** For user input (a key from a URL): null when missing or not even a valid key. */
  find(key: string): RegisteredTemplate | null {
    return isValidTemplateKey(key) ? (this.#templates.get(key) ?? null) : null
  }

  /** For trusted keys (a stored template_key, a record's declaration): throws ERR_TEMPLATE_NOT_FOUND (404) where find() answers null. */
  get(key: string): RegisteredTemplate {
    return requireTemplate(this, key)
  }

  /** A snapshot, key -> template, in registration order. */
  all(): ReadonlyMap<string, RegisteredTemplate> {
    return new Map(this.#templates)
  }

  origin(key: string): TemplateOrigin | undefined {
    return this.#origins.get(key)
  }

  /**
   * Takes a key out (a saved template deleted): true when it was there. Rows that name the key
   * (placements, signatures, sessions) stay: they keep what they froze, and a later registration
   * of the key finds them again.
   */
  unregister(key: string): boolean {
    this.#origins.delete(key)
    return this.#templates.delete(key)
  }

  /**
   * Registrations kept elsewhere (a table other instances write too) are brought up to date by
   * `refresh` whenever fresh() is awaited: a list or a lookup that must match every instance awaits
   * it first. The sources decide how cheap that is (documents/document-templates.ts reads its rows
   * only when the database's write stamp moved).
   */
  keepFreshWith(refresh: () => Promise<void>): void {
    this.#refreshers.push(refresh)
  }

  /** This registry, after every source given to keepFreshWith() caught up with its store. */
  async fresh(): Promise<this> {
    for (const refresh of this.#refreshers) await refresh()
    return this
  }

  /** A template instance, or a template class (instantiated here with the registry's context). */
  register(source: PdfTemplate | PdfTemplateClass, origin: TemplateOrigin = 'runtime'): RegisteredTemplate {
    const template = typeof source === 'function' ? new source(this.#context) : source
    if (!isPdfTemplate(template)) {
      throw new TemplateConfigError(String((source as { name?: string }).name ?? '(anonymous)'), '(template)', 'does not implement PdfTemplate (key, label, slots, renderSample, renderFor)')
    }
    return this.#put(template, origin)
  }

  /** A template declared as data: it becomes a ViewPdfTemplate (validated; a bad entry throws). */
  registerView(key: string, entry: ViewTemplateEntry, origin: TemplateOrigin = 'runtime'): ViewPdfTemplate {
    const template = new ViewPdfTemplate(key, entry, this.#context)
    this.#put(template, origin)
    return template
  }

  /** Any of the accepted forms: what config lists and the fluent lists (app-level or a panel's) hand over. */
  add(source: TemplateSource, origin: TemplateOrigin = 'runtime'): RegisteredTemplate {
    if (typeof source === 'object' && source !== null && typeof (source as { key?: unknown }).key === 'string') {
      const { key, ...entry } = source as { key: string } & ViewTemplateEntry
      return this.registerView(key, entry, origin)
    }
    return this.register(source as PdfTemplate | PdfTemplateClass, origin)
  }

  /** Every entry of a config map (template key -> entry). */
  registerViews(entries: Record<string, ViewTemplateEntry>, origin: TemplateOrigin = 'config'): void {
    for (const [key, entry] of Object.entries(entries)) this.registerView(key, entry, origin)
  }

  /** The one shared instance of a renderer class; refuses with 503 when it cannot run here. */
  renderer(type: PdfRendererClass = this.#options.defaultRenderer): PdfRenderer {
    if (!type.isAvailable()) {
      throw ERR_RENDERER_UNAVAILABLE(`The PDF renderer ${type.name} is not available: ${type.requirement ?? 'it reports that it cannot run here'}`)
    }
    let renderer = this.#renderers.get(type)
    if (!renderer) {
      renderer = new type({ renderView: (view, data) => this.#options.views.render(view, data) })
      this.#renderers.set(type, renderer)
    }
    return renderer
  }

  /** False when the template's renderer cannot run here; the template is listed, marked unavailable. */
  isAvailable(template: PdfTemplate): boolean {
    return template.renderer ? template.renderer().isAvailable() : true
  }

  /** Releases shared renderers (the browser); called when the app closes. */
  async close(): Promise<void> {
    const renderers = [...this.#renderers.values()]
    this.#renderers.clear()
    await Promise.all(renderers.map((r) => r.close?.()))
  }

  #put(template: PdfTemplate, origin: TemplateOrigin): RegisteredTemplate {
    const key = assertTemplateKey(template.key())
    const registered = withNormalizedSlots(key, template)
    // Map.set on an existing key keeps its position: a replacement does not reorder the list.
    this.#templates.set(key, registered)
    this.#origins.set(key, origin)
    return registered
  }
}

/**
 * Normalizes a template's slots once, here, so a bad slot stops the registration, whichever way
 * it was written. The instance itself is kept (callers compare it, and its methods may use private
 * fields): when it declared builders or literals, its slots() is replaced on the instance by the
 * normalized list.
 */
function withNormalizedSlots(key: string, template: PdfTemplate): RegisteredTemplate {
  const declared = template.slots()
  const slots = Object.freeze(normalizeSlots(key, declared))
  const alreadyNormal = Array.isArray(declared) && declared.every((slot) => slot instanceof SlotDefinition)
  if (!alreadyNormal) Object.defineProperty(template, 'slots', { value: () => slots, configurable: true, writable: true, enumerable: false })
  return template as RegisteredTemplate
}
