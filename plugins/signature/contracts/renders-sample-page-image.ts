/**
 * Optional on a template: it supplies its own page images, so the designer skips the rasterizer.
 * An image's pixel size is taken to equal the page's size in points, so render at 72 DPI.
 */
export interface RendersSamplePageImage {
  /** Absolute path of a PNG or JPEG of that page of the sample; page is 1-based. */
  renderSampleAsImage(page: number): Promise<string>
  sampleImagePageCount(): Promise<number>
}

export function rendersSamplePageImage(template: object): template is RendersSamplePageImage {
  const t = template as Partial<RendersSamplePageImage>
  return typeof t.renderSampleAsImage === 'function' && typeof t.sampleImagePageCount === 'function'
}
