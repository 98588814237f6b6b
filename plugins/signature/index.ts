// The signature plugin's one public entry point: a host imports from this file only (the
// before-stop hook and test/architecture check it). What is not exported here is internal.

// The contracts a host implements: templates, renderers, records and where records come from.
export * from './contracts/index.ts'
// App level, once: services, the APIs, workers; and the migrations the host runs with its own.
export { Signatures, type SignatureApp, type SignatureAppOptions, type SignaturesBuilder } from './signature-app.ts'
export { signatureMigrations } from './database/migrations/index.ts'
export type { SignatureConfigInput } from './signature-config.ts'
export type { TemplateSource } from './registry/pdf-template-registry.ts'
export type { ViewTemplateEntry } from './templates/view-template-entry.ts'
// Panel level, per panel: which pages it gets.
export { SignaturePlugin, type SignaturePage } from './signature-plugin.ts'
// For template classes: the default renderer (HTML views through Chromium), and the fixed date a
// renderer of the host stamps so that the same data gives the same bytes (samples are cached).
export { ChromiumPdfRenderer } from './rendering/chromium-pdf-renderer.ts'
export { FIXED_PDF_DATE } from './rendering/deterministic-pdf.ts'
