import type { PdfRendererClass } from '../contracts/pdf-renderer.ts'
import type { PdfTemplate, TemplateContext } from '../contracts/pdf-template.ts'
import type { SlotDefinition } from '../contracts/slot-definition.ts'
import type { ViewEngine } from '../rendering/view-engine.ts'
import { documentFileKey, sampleFileKey } from './file-keys.ts'
import { normalizeSlots } from './normalize-slots.ts'
import { assertTemplateKey } from './template-key.ts'
import { TemplateConfigError } from './template-config-error.ts'
import { titleCase } from './title-case.ts'
import { viewTemplateEntrySchema, type ViewTemplateEntry } from './view-template-entry.ts'

type Data = Record<string, unknown>

/** What a view template needs beyond a class template: views, and renderers by name. */
export interface ViewTemplateContext extends TemplateContext {
  readonly views: ViewEngine
  /** undefined for an unknown name; the registry's default for undefined. */
  rendererClass(nameOrClass?: string | PdfRendererClass): PdfRendererClass | undefined
}

/** A template declared as data: a view rendered to PDF by a renderer, with normalized slots. */
export class ViewPdfTemplate implements PdfTemplate {
  readonly #key: string
  readonly #label: string
  readonly #view: string
  readonly #slots: readonly SlotDefinition[]
  readonly #sampleData: ViewTemplateEntry['sample_data']
  readonly #dataResolver: (record: unknown) => Data | Promise<Data>
  readonly #renderer: PdfRendererClass
  readonly #context: ViewTemplateContext
  #sampleInFlight: Promise<string> | undefined

  constructor(key: string, entry: ViewTemplateEntry, context: ViewTemplateContext) {
    try {
      assertTemplateKey(key)
    } catch (error) {
      throw new TemplateConfigError(String(key), 'key', (error as Error).message)
    }
    const parsed = viewTemplateEntrySchema.safeParse(entry)
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!
      const field = issue.path.length ? issue.path.map(String).join('.') : '(entry)'
      throw new TemplateConfigError(key, field, issue.code === 'unrecognized_keys' ? `unknown field(s): ${(issue as { keys: string[] }).keys.join(', ')}` : issue.message)
    }
    const renderer = context.rendererClass(parsed.data.renderer)
    if (!renderer) throw new TemplateConfigError(key, 'renderer', `unknown renderer ${JSON.stringify(parsed.data.renderer)}`)
    this.#key = key
    this.#label = parsed.data.label ?? titleCase(key)
    this.#view = parsed.data.view
    this.#slots = Object.freeze(normalizeSlots(key, entry.slots))
    this.#sampleData = parsed.data.sample_data
    this.#dataResolver = parsed.data.data_resolver ?? ((record) => ({ record }))
    this.#renderer = renderer
    this.#context = context
  }

  key(): string { return this.#key }
  label(): string { return this.#label }
  view(): string { return this.#view }
  slots(): readonly SlotDefinition[] { return this.#slots }
  renderer(): PdfRendererClass { return this.#renderer }

  /**
   * The sample's path is a digest of everything that shapes its bytes (view file, data, renderer),
   * so an unchanged sample keeps its path and mtime (page-image caches stay valid) and a changed
   * view or data gets a new path instead of a stale cached image.
   */
  renderSample(): Promise<string> {
    // Concurrent first requests share one render instead of racing to write the same file.
    this.#sampleInFlight ??= this.#renderSample().finally(() => { this.#sampleInFlight = undefined })
    return this.#sampleInFlight
  }

  async #renderSample(): Promise<string> {
    const data = typeof this.#sampleData === 'function' ? await this.#sampleData() : (this.#sampleData ?? {})
    const key = sampleFileKey(this.#key, [this.#view, this.#renderer.name, await this.#context.views.fingerprint(this.#view), data])
    if (await this.#context.disk.exists(key)) return this.#context.disk.path(key)
    return this.#context.renderer(this.#renderer).render(this.#view, data, this.#context.disk.path(key))
  }

  async renderFor(record: unknown): Promise<string> {
    const data = await this.#dataResolver(record)
    const key = documentFileKey(this.#key, record, data)
    return this.#context.renderer(this.#renderer).render(this.#view, data, this.#context.disk.path(key))
  }
}
