import type { FastifyReply, FastifyRequest } from 'fastify'
import type { PageImageCache } from '../rasterizer/page-image-cache.ts'
import { loadPageImage, pageImageEtag, type PageSource } from '../rendering/page-source.ts'

export type { PageSource } from '../rendering/page-source.ts'

const CACHE_CONTROL = 'private, no-cache'

/** True when the request's If-None-Match names this ETag (or is `*`). */
export function etagMatches(request: FastifyRequest, etag: string): boolean {
  const header = request.headers['if-none-match']
  if (!header) return false
  return header.split(',').map((tag) => tag.trim().replace(/^W\//, '')).some((tag) => tag === etag || tag === '*')
}

/**
 * Answers one page (1-based) of a template's sample, or of any PDF, as an image: the template's own
 * image when it implements RendersSamplePageImage, otherwise the rasterizer's cached PNG at
 * designer.dpi. Sets ETag and answers 304 to a matching If-None-Match. `private, no-cache`: the
 * URL is not versioned, so the browser revalidates, which costs a 304 and no bytes.
 *
 *   return sendPageImage(request, reply, { template }, page, app.signature.pageImages)
 *   return sendPageImage(request, reply, { pdfPath }, page, app.signature.pageImages)
 *
 * Throws ERR_PAGE_NOT_FOUND (404) for a page the document lacks; the caller checks permissions
 * before calling. The image is the page as displayed, the frame every placement is measured in.
 */
export async function sendPageImage(request: FastifyRequest, reply: FastifyReply, source: PageSource, page: number, pageImages: PageImageCache): Promise<FastifyReply> {
  // Revalidation first, from a stat: a 304 must not read, let alone render, the image.
  if (request.headers['if-none-match']) {
    const etag = await pageImageEtag(source, page, pageImages)
    if (etag && etagMatches(request, etag)) return reply.header('etag', etag).header('cache-control', CACHE_CONTROL).code(304).send()
  }
  const image = await loadPageImage(source, page, pageImages)
  reply.header('etag', image.etag).header('cache-control', CACHE_CONTROL)
  return reply.type(image.contentType).send(image.body)
}
