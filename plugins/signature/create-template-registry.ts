import { Disks } from '../../core/storage/disks.ts'
import type { PdfRendererClass } from './contracts/pdf-renderer.ts'
import { PdfTemplateRegistry } from './registry/pdf-template-registry.ts'
import { ChromiumPdfRenderer } from './rendering/chromium-pdf-renderer.ts'
import { createEtaViewEngine } from './rendering/view-engine.ts'
import type { SignatureConfig } from './signature-config.ts'

export interface TemplateRegistryOptions {
  /** Root of the storage folder (STORAGE_PATH). */
  storagePath: string
  /** Root of the host's Eta views ('pdf.x' -> <viewsRoot>/pdf/x.eta). */
  viewsRoot: string
  /** Renderers config entries may name by string, in addition to 'chromium'. */
  renderers?: Record<string, PdfRendererClass>
  defaultRenderer?: PdfRendererClass
}

/**
 * The registry with the config's templates registered eagerly. Needs no HTTP server and no
 * database, so a command-line script can render a template with the same declarations as the app.
 */
export function createTemplateRegistry(config: SignatureConfig, options: TemplateRegistryOptions): PdfTemplateRegistry {
  const disk = new Disks(options.storagePath).disk(config.storage_disk)
  const registry = new PdfTemplateRegistry({
    disk,
    views: createEtaViewEngine(options.viewsRoot),
    defaultRenderer: options.defaultRenderer ?? ChromiumPdfRenderer,
    renderers: { chromium: ChromiumPdfRenderer, ...options.renderers },
  })
  registry.registerViews(config.templates, 'config')
  return registry
}
