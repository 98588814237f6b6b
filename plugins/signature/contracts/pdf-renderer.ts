/** Turns a view and its data into a PDF file. */
export interface PdfRenderer {
  /** Writes the PDF to destinationPath (atomically) and returns that path. */
  render(view: string, data: Record<string, unknown>, destinationPath: string): Promise<string>
  /** Releases what the renderer holds (a browser); called when the app closes. */
  close?(): Promise<void>
}

/** What a renderer gets when it is instantiated: how to turn a view name into HTML. */
export interface RendererContext {
  renderView(view: string, data: Record<string, unknown>): Promise<string>
}

/** A renderer class: `static isAvailable()` lets lists mark a template unavailable without rendering. */
export interface PdfRendererClass {
  new (context: RendererContext): PdfRenderer
  isAvailable(): boolean
  /** What to install when isAvailable() is false. */
  readonly requirement?: string
}

export function isPdfRendererClass(value: unknown): value is PdfRendererClass {
  return typeof value === 'function' && typeof (value as { isAvailable?: unknown }).isAvailable === 'function'
}
