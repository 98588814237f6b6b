import type { FastifyInstance } from 'fastify'
import { z } from 'zod'
import { parseInput } from '../../../core/http/validate.ts'
import { sendPageImage } from '../designer/send-page-image.ts'
import type { PageImageCache } from '../rasterizer/page-image-cache.ts'
import { MAX_UPLOAD_PDF_BYTES } from '../signing/uploaded-pdf.ts'
import type { DocumentTemplates } from './document-templates.ts'
import type { Documents } from './documents.ts'
import { assertPermission } from '../../../core/access/assert-permission.ts'
import { requireUser } from '../../../core/auth/require-user.ts'
import { SESSION_PERMISSION } from '../permissions.ts'

const idParams = z.strictObject({ id: z.string().min(1).max(64) })
const keyParams = z.strictObject({ key: z.string().min(1).max(200) })
const pageParams = z.strictObject({ id: z.string().min(1).max(64), page: z.coerce.number().int().min(1).max(10_000) })
const uploadQuery = z.strictObject({ filename: z.string().max(300).optional() })

/** `filename="..."` (or RFC 6266's `filename*=UTF-8''...`) of a Content-Disposition header. */
function dispositionName(header: string | undefined): string | undefined {
  if (!header) return undefined
  const extended = /filename\*\s*=\s*UTF-8''([^;]+)/i.exec(header)?.[1]
  if (extended) {
    try { return decodeURIComponent(extended) } catch { return undefined }
  }
  return /filename\s*=\s*"?([^";]+)"?/i.exec(header)?.[1]
}

/** /api/documents: upload a PDF (the body itself, application/pdf), read it back and its pages. */
export async function documentsApi(app: FastifyInstance, { documents, templates, pageImages }: { documents: Documents; templates: DocumentTemplates; pageImages: PageImageCache }) {
  // One byte over the limit still parses, so the size check answers with its own code and message.
  app.addContentTypeParser('application/pdf', { parseAs: 'buffer', bodyLimit: MAX_UPLOAD_PDF_BYTES + 1 }, (_request, body, done) => done(null, body))

  app.post('/api/documents', { config: { bodyTypes: ['application/pdf'] } }, async (request, reply) => {
    const { filename } = parseInput(uploadQuery, request.query, 'query')
    const body = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0)
    const document = await documents.upload(request.user, body, filename ?? dispositionName(request.headers['content-disposition']))
    return reply.code(201).header('Location', `/api/documents/${document.id}`).send({ data: document })
  })

  app.get('/api/documents/:id', async (request) => {
    const { id } = parseInput(idParams, request.params, 'params')
    return { data: await documents.get(request.user, id) }
  })

  app.get('/api/documents/:id/pages/:page', async (request, reply) => {
    const { id, page } = parseInput(pageParams, request.params, 'params')
    return sendPageImage(request, reply, { pdfPath: await documents.path(request.user, id) }, page, pageImages)
  })

  // Saves the document with its fields as a template (issue 38, item 6): 201 with the template.
  app.post('/api/documents/:id/template', async (request, reply) => {
    const { id } = parseInput(idParams, request.params, 'params')
    const template = await templates.save(request.user, id, request.body)
    return reply.code(201).send({ data: template })
  })

  app.get('/api/document-templates', async (request) => {
    assertPermission(documents.deps.policy, requireUser(request.user), SESSION_PERMISSION.create)
    return { data: await templates.list() }
  })

  // A saved template's new name (the key stays): 200 with the template. Config and code templates: 409.
  app.patch('/api/document-templates/:key', async (request) => {
    const { key } = parseInput(keyParams, request.params, 'params')
    return { data: await templates.rename(request.user, key, request.body) }
  })

  // A saved template deleted: 204. Sessions started from it go on; its document stays.
  app.delete('/api/document-templates/:key', async (request, reply) => {
    const { key } = parseInput(keyParams, request.params, 'params')
    await templates.remove(request.user, key)
    return reply.code(204).send()
  })
}
