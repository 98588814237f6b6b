import { createHash } from 'node:crypto'
import { readFile, stat } from 'node:fs/promises'
import type { PdfTemplate } from '../contracts/pdf-template.ts'
import { rendersSamplePageImage } from '../contracts/renders-sample-page-image.ts'
import { ERR_PAGE_NOT_FOUND } from '../errors.ts'
import { checkImageStructure } from '../pdf/image-structure.ts'
import type { PageImageCache } from '../rasterizer/page-image-cache.ts'
import type { PageSize } from '../rasterizer/page-geometry.ts'

/** Where page images come from: a template (its own images, or its sample PDF) or any PDF on disk. */
export type PageSource = { template: PdfTemplate } | { pdfPath: string }

export interface LoadedPageImage {
  body: Buffer
  contentType: 'image/png' | 'image/jpeg'
  /** Strong validator; changes whenever the bytes can. */
  etag: string
}

/**
 * Page sizes in PDF points. A template implementing RendersSamplePageImage is taken at its word:
 * each image's pixel size is its page's size in points (72 DPI). Everything else goes through the
 * rasterizer's geometry: each page as displayed (CropBox, /Rotate, /UserUnit).
 */
export async function pageSizesOf(source: PageSource, pageImages: PageImageCache): Promise<PageSize[]> {
  if ('template' in source && rendersSamplePageImage(source.template)) {
    const count = await source.template.sampleImagePageCount()
    const sizes: PageSize[] = []
    for (let page = 1; page <= count; page++) {
      const { width, height } = checkImageStructure(await readFile(await source.template.renderSampleAsImage(page)))
      sizes.push({ page, width, height })
    }
    return sizes
  }
  return pageImages.pages(await pdfPathOf(source))
}

/** From the file name and its mtime and size: the template names images after their sample, so this changes with the bytes. */
async function templateImageEtag(file: string): Promise<string> {
  const info = await stat(file)
  return `"${createHash('sha256').update(`${file}\0${info.mtimeMs}\0${info.size}`).digest('hex').slice(0, 40)}"`
}

/** One page (1-based) as an image; ERR_PAGE_NOT_FOUND when the document has no such page. */
export async function loadPageImage(source: PageSource, page: number, pageImages: PageImageCache): Promise<LoadedPageImage> {
  if ('template' in source && rendersSamplePageImage(source.template)) {
    const count = await source.template.sampleImagePageCount()
    if (!Number.isInteger(page) || page < 1 || page > count) throw ERR_PAGE_NOT_FOUND(`The document has no page ${page} (it has ${count})`)
    const file = await source.template.renderSampleAsImage(page)
    const body = await readFile(file)
    const { kind } = checkImageStructure(body)
    return { body, contentType: kind === 'png' ? 'image/png' : 'image/jpeg', etag: await templateImageEtag(file) }
  }
  const pdfPath = await pdfPathOf(source)
  // Geometry first: a page that does not exist is a 404 before any render.
  const sizes = await pageImages.pages(pdfPath)
  if (!Number.isInteger(page) || page < 1 || page > sizes.length) throw ERR_PAGE_NOT_FOUND(`The document has no page ${page} (it has ${sizes.length})`)
  const image = await pageImages.page(pdfPath, page)
  return { body: image.png, contentType: 'image/png', etag: image.etag }
}

/**
 * The ETag loadPageImage would give, without reading or rendering the image: a stat of the file
 * (and the page count, cached with the geometry). A page that does not exist has no ETag any
 * client could hold, so it is undefined and matches nothing, not even `*`.
 */
export async function pageImageEtag(source: PageSource, page: number, pageImages: PageImageCache): Promise<string | undefined> {
  if ('template' in source && rendersSamplePageImage(source.template)) {
    if (!(await pageExists(page, source.template.sampleImagePageCount()))) return undefined
    return templateImageEtag(await source.template.renderSampleAsImage(page))
  }
  const pdfPath = await pdfPathOf(source)
  if (!(await pageExists(page, pageImages.pages(pdfPath).then((sizes) => sizes.length)))) return undefined
  return pageImages.etag(pdfPath, page)
}

async function pageExists(page: number, count: Promise<number>): Promise<boolean> {
  return Number.isInteger(page) && page >= 1 && page <= await count
}

// A template's sample being rendered: requests for its sizes and its images may ask for it at
// once, and a first sample costs hundreds of ms (pdf-lib loaded, or a Chromium page).
const samplesInFlight = new WeakMap<PdfTemplate, Promise<string>>()

async function pdfPathOf(source: PageSource): Promise<string> {
  if ('pdfPath' in source) return source.pdfPath
  const { template } = source
  let pending = samplesInFlight.get(template)
  if (!pending) {
    pending = template.renderSample().finally(() => samplesInFlight.delete(template))
    samplesInFlight.set(template, pending)
  }
  return pending
}
