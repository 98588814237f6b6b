import type { FastifyBaseLogger } from 'fastify'
import type { PageImageCache } from '../rasterizer/page-image-cache.ts'
import { loadPageImage, type PageSource } from '../rendering/page-source.ts'

/**
 * Starts the first page image of a source without waiting for it: the designer page calls this
 * as it is served, so that the sample PDF, the rasterizer's worker (thread, mupdf) and the first
 * render run while the browser loads the page's styles and scripts and asks for the page sizes;
 * the browser's own requests then join the work in flight (PageImageCache shares one render and
 * one geometry task per file). A failure is only logged: the browser's request meets it again and
 * answers it with its code.
 */
export function warmFirstPageImage(source: PageSource, pageImages: PageImageCache, log: FastifyBaseLogger): void {
  loadPageImage(source, 1, pageImages).catch((error: unknown) => log.warn({ err: error }, 'warming the first page image failed'))
}
