// The contracts a host implements; nothing here depends on how the plugin works inside.
export { SlotDefinition, type SlotDefinitionInit } from './slot-definition.ts'
export { isPdfTemplate, type PdfTemplate, type PdfTemplateClass, type TemplateContext } from './pdf-template.ts'
export { isPdfRendererClass, type PdfRenderer, type PdfRendererClass, type RendererContext } from './pdf-renderer.ts'
export { rendersSamplePageImage, type RendersSamplePageImage } from './renders-sample-page-image.ts'
export { isSignable, type Signable } from './signable.ts'
export { HasPdfTemplate, type TemplateLookup } from './has-pdf-template.ts'
export type { SignableSource } from './signable-source.ts'
