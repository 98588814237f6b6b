import type { FastifyInstance } from 'fastify'
import { z } from 'zod'
import type { Policy } from '../../../core/access/policy.ts'
import { requireUser } from '../../../core/auth/require-user.ts'
import { isAppError } from '../../../core/http/errors.ts'
import { ERR_LTV_DOCUMENT_NOT_FOUND, ERR_LTV_NOT_APPLICABLE } from '../ltv/errors.ts'
import { parseInput } from '../../../core/http/validate.ts'
import { UUID } from '../../../core/http/uuid.ts'
import { sendPageImage } from '../designer/send-page-image.ts'
import { ERR_COUNTERSIGN_ONE_PLACEMENT, ERR_PDF_NO_CHANGES_ALLOWED } from '../pdf/errors.ts'
import { assertPdfUpload, MAX_UPLOAD_PDF_BYTES } from './uploaded-pdf.ts'
import type { SignatureServices } from '../signature-services.ts'
import { assertOnPage, boxSchema } from './placements.ts'
import { sha256Hex } from './sha256-hex.ts'
import { findVisibleSignedDocument } from './signed-document-access.ts'
import { isOnePassDocumentKey, SignatureManager } from './signature-manager.ts'
import { renewSignedDocument } from './signed-document-renewal.ts'

export { MAX_UPLOAD_PDF_BYTES }
// base64 grows by 4/3; the JSON around it is small.
const SIGN_BODY_LIMIT = Math.ceil(MAX_UPLOAD_PDF_BYTES * 4 / 3) + 64 * 1024

const signBodySchema = z.strictObject({
  signature: z.string().regex(UUID, 'a signature uuid'),
  /** The PDF, base64: /api writes are JSON-only (core/http/security.ts), which keeps cross-site forms out. */
  pdf: z.string().min(1).regex(/^[A-Za-z0-9+/]+={0,2}$/, 'base64'),
  placements: z.array(boxSchema).min(1).max(50),
  /** A name for the file, used in the download's file name and the signature's reason. */
  title: z.string().trim().min(1).max(200).optional(),
})

const pageParams = z.strictObject({ uuid: z.string().max(64), page: z.coerce.number().int().min(1).max(10_000) })

function fileName(text: string): string {
  return text.replace(/[^A-Za-z0-9._-]+/g, '-').replace(/^-+|-+$/g, '').slice(0, 80) || 'document'
}

/**
 * GET /api/signatures/:uuid/document — a signed copy, for its signer and `signatures:read-any`
 * (404 for everyone else, as for a uuid that does not exist); GET /api/signatures/:uuid/pages/:page
 * — one of its pages as an image, for the same people. POST /api/sign — signs an uploaded
 * PDF on demand with one of the user's signatures and answers the signed PDF.
 */
export async function signingApi(app: FastifyInstance, { services, policy }: { services: SignatureServices; policy: Policy }) {
  const manager = new SignatureManager({ repository: services.signatures, disk: services.disk, pdf: services.pdf, longTermValidation: services.ltv, onSigned: () => services.metrics.signatureMade('single') })

  app.get<{ Params: { uuid: string } }>('/api/signatures/:uuid/document', async (request, reply) => {
    const row = await findVisibleSignedDocument(services.signatures, policy, requireUser(request.user), request.params.uuid)
    const bytes = await services.disk.get(row.document_key)
    return reply
      .type('application/pdf')
      .header('content-disposition', `attachment; filename="${fileName(`${row.signable_type}-${row.signable_id}`)}-signed.pdf"`)
      .header('cache-control', 'private, no-store')
      .header('x-document-sha256', row.document_sha256 ?? '')
      .send(bytes)
  })

  // The signed document's pages as images: the signer page shows what was signed, stamps included.
  app.get('/api/signatures/:uuid/pages/:page', async (request, reply) => {
    const user = requireUser(request.user)
    const { uuid, page } = parseInput(pageParams, request.params, 'params')
    const row = await findVisibleSignedDocument(services.signatures, policy, user, uuid)
    return sendPageImage(request, reply, { pdfPath: services.disk.path(row.document_key) }, page, services.pageImages)
  })

  // Archive renewal of a one-pass signed copy (a session's document is renewed through the session).
  app.post<{ Params: { uuid: string } }>('/api/signatures/:uuid/renew-timestamp', async (request) => {
    const row = await findVisibleSignedDocument(services.signatures, policy, requireUser(request.user), request.params.uuid).catch((error: unknown) => {
      throw isAppError(error) && error.code === 'ERR_NOT_FOUND' ? ERR_LTV_DOCUMENT_NOT_FOUND('No signed document with this id') : error
    })
    if (!isOnePassDocumentKey(row.document_key)) throw ERR_LTV_NOT_APPLICABLE('This signature is part of a signing session: renew the session\'s document')
    const renewed = await renewSignedDocument({ signatures: services.signatures, disk: services.disk, ltv: services.ltv }, row)
    return { data: { uuid: row.uuid, document_sha256: renewed.sha256 } }
  })

  app.post('/api/sign', { bodyLimit: SIGN_BODY_LIMIT }, async (request, reply) => {
    const user = requireUser(request.user)
    const body = parseInput(signBodySchema, request.body, 'body')
    const pdf = Buffer.from(body.pdf, 'base64')
    assertPdfUpload(pdf)
    const material = await services.library.signingMaterial(user.id, body.signature)
    // Parses in a worker: refuses unreadable and encrypted files with their own 422s.
    const summary = await services.pdf.run('inspectPdf', pdf)
    body.placements.forEach((box, i) => assertOnPage(box, summary.pages, `placements.${i}`))
    const countersign = summary.signatureFields.some((field) => field.signed)
    if (countersign && summary.docMdp === 1) throw ERR_PDF_NO_CHANGES_ALLOWED()
    if (countersign && body.placements.length !== 1) throw ERR_COUNTERSIGN_ONE_PLACEMENT(`The PDF is signed already; ${body.placements.length} placements were sent`)
    const sha256 = sha256Hex(pdf)
    const signed = await manager.sign({
      pdf,
      material,
      subject: { type: 'upload', id: sha256, templateKey: null, ...(body.title ? { title: body.title } : {}) },
      placements: body.placements.map((box) => ({ slot: null, ...box })),
      // A PDF signed before (here or elsewhere) gets its signature appended: theirs stay valid.
      countersign,
    })
    return reply
      .type('application/pdf')
      .header('content-disposition', `attachment; filename="${fileName(body.title ?? 'document')}-signed.pdf"`)
      .header('x-signature-uuid', signed.uuid)
      .header('location', `/api/signatures/${signed.uuid}/document`)
      .send(Buffer.from(signed.bytes))
  })
}
