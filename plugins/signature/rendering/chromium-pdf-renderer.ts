import type { Browser, BrowserContext, Page } from 'playwright-core'
import { atomicWriteFile } from '../../../core/storage/atomic-write.ts'
import type { PdfRenderer, RendererContext } from '../contracts/pdf-renderer.ts'
import { ERR_RENDERER_UNAVAILABLE } from '../errors.ts'
import { findChromium } from './chromium-path.ts'
import { ConcurrencyLimit } from './concurrency-limit.ts'
import { withFixedMetadata } from './deterministic-pdf.ts'

// Without the networking flags Chromium keeps trying to reach the internet (see notes/stack.md).
const CHROMIUM_ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking',
  '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-dev-shm-usage']

/**
 * The default renderer: a view's HTML printed to PDF by headless Chromium. One browser per
 * renderer instance (the registry keeps one instance per app), launched on first use; one page
 * per render, at most `maxConcurrent` at once, so a burst of renders cannot exhaust memory.
 * Pages are kept and reused: opening one costs 150-400 ms here, reusing one ~30-100 ms. Reuse is
 * safe because the context runs no JavaScript and reaches no network, so a document leaves
 * nothing behind for the next; setContent() replaces it whole.
 * The page size comes from the view's CSS `@page { size: ... }`.
 */
export class ChromiumPdfRenderer implements PdfRenderer {
  static readonly requirement = 'install Chromium (apt-get install -y chromium) or set CHROMIUM_PATH to a Chromium or Chrome executable'

  static isAvailable(): boolean {
    return findChromium() !== null
  }

  readonly #context: RendererContext
  readonly #limit: ConcurrencyLimit
  #browser: Promise<Browser> | undefined
  #context_: Promise<BrowserContext> | undefined
  readonly #idle: Page[] = []
  #closed = false

  constructor(context: RendererContext, options: { maxConcurrent?: number } = {}) {
    this.#context = context
    this.#limit = new ConcurrencyLimit(options.maxConcurrent ?? Number(process.env.PDF_RENDER_CONCURRENCY ?? 4))
  }

  async render(view: string, data: Record<string, unknown>, destinationPath: string): Promise<string> {
    const html = await this.#context.renderView(view, data)
    const pdf = await this.#limit.run(() => this.#print(html))
    return atomicWriteFile(destinationPath, await withFixedMetadata(pdf, 'fastify-panels-signature (Chromium)'))
  }

  /** For tests and health checks: how busy the renderer is. */
  stats(): { running: number; waiting: number; idlePages: number; launched: boolean } {
    return { running: this.#limit.running, waiting: this.#limit.waiting, idlePages: this.#idle.length, launched: this.#browser !== undefined }
  }

  async close(): Promise<void> {
    this.#closed = true
    const browser = this.#browser
    this.#browser = undefined
    this.#context_ = undefined
    this.#idle.length = 0
    if (browser) await (await browser.catch(() => null))?.close()
  }

  async #print(html: string): Promise<Uint8Array> {
    const page = this.#idle.pop() ?? (await (await this.#browserContext()).newPage())
    let reusable = false
    try {
      await page.setContent(html, { waitUntil: 'load' })
      const pdf = await page.pdf({ preferCSSPageSize: true, printBackground: true })
      reusable = true
      return pdf
    } finally {
      // A page that failed is closed, not reused: its state is unknown.
      if (reusable && !page.isClosed() && !this.#closed) this.#idle.push(page)
      else await page.close().catch(() => {})
    }
  }

  #browserContext(): Promise<BrowserContext> {
    if (!this.#context_) {
      const creating = this.#launch().then(async (browser) => {
        // No JavaScript and no network: a PDF view is static HTML and nothing in it may reach out.
        const context = await browser.newContext({ javaScriptEnabled: false, offline: true })
        await context.route('**/*', (route) => (route.request().url().startsWith('data:') ? route.continue() : route.abort()))
        return context
      })
      this.#context_ = creating
      creating.catch(() => { if (this.#context_ === creating) this.#context_ = undefined })
    }
    return this.#context_
  }

  #launch(): Promise<Browser> {
    if (this.#closed) return Promise.reject(new Error('The Chromium renderer is closed'))
    if (!this.#browser) {
      const executablePath = findChromium()
      if (!executablePath) return Promise.reject(ERR_RENDERER_UNAVAILABLE(`Chromium was not found: ${ChromiumPdfRenderer.requirement}`))
      // Imported here, not at the top: playwright-core's client adds ~40-80 MiB to the process,
      // which an app that never renders a view to PDF (or has not yet) should not pay at start.
      const launching = import('playwright-core').then(({ chromium }) => chromium.launch({ executablePath, args: CHROMIUM_ARGS, headless: true }))
      this.#browser = launching
      // A crashed browser is relaunched on the next render instead of failing every later one.
      launching.then((browser) => browser.on('disconnected', () => {
        if (this.#browser !== launching) return
        this.#browser = undefined
        this.#context_ = undefined
        this.#idle.length = 0
      }),
        () => { if (this.#browser === launching) this.#browser = undefined })
    }
    return this.#browser
  }
}
