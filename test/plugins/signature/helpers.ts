// Test helpers of the signature plugin: a registry on a temporary disk with a temporary views root.
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { LocalDisk } from '../../../core/storage/disk.ts'
import type { PdfRenderer, PdfRendererClass, RendererContext } from '../../../plugins/signature/contracts/pdf-renderer.ts'
import { PdfTemplateRegistry, type RegistryOptions } from '../../../plugins/signature/registry/pdf-template-registry.ts'
import { createEtaViewEngine } from '../../../plugins/signature/rendering/view-engine.ts'
import { atomicWriteFile } from '../../../core/storage/atomic-write.ts'

interface TapLike { teardown(fn: () => unknown): void }

/**
 * A renderer that writes the view's HTML instead of a PDF: for tests about what a template hands
 * to its renderer (data, view, destination), not about PDF bytes. Counts its calls.
 */
export class HtmlDumpRenderer implements PdfRenderer {
  static calls: Array<{ view: string; data: Record<string, unknown>; destination: string }> = []
  static isAvailable(): boolean { return true }
  constructor(private readonly context: RendererContext) {}
  async render(view: string, data: Record<string, unknown>, destination: string): Promise<string> {
    HtmlDumpRenderer.calls.push({ view, data, destination })
    return atomicWriteFile(destination, await this.context.renderView(view, data))
  }
}

export const NeverAvailableRenderer: PdfRendererClass = class implements PdfRenderer {
  static isAvailable(): boolean { return false }
  static readonly requirement = 'install the imaginary renderer'
  async render(): Promise<string> { throw new Error('must not be called') }
}

export async function makeRegistry(t: TapLike, options: Partial<RegistryOptions> = {}) {
  const base = await mkdtemp(path.join(tmpdir(), 'sig-test-'))
  t.teardown(() => rm(base, { recursive: true, force: true }))
  const viewsRoot = path.join(base, 'views')
  await mkdir(path.join(viewsRoot, 'pdf'), { recursive: true })
  await writeFile(path.join(viewsRoot, 'pdf', 'simple.eta'), '<h1><%= it.title ?? "" %></h1>')
  const disk = new LocalDisk('test', path.join(base, 'disk'))
  const registry = new PdfTemplateRegistry({ disk, views: createEtaViewEngine(viewsRoot), defaultRenderer: HtmlDumpRenderer, ...options })
  t.teardown(() => registry.close())
  return { registry, disk, viewsRoot, base }
}
