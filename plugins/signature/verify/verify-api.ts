// POST /api/verify: anyone may send a PDF (raw application/pdf, or JSON { pdf: base64 }) and gets
// the verification report; nothing is stored. GET .../verification: the report of a document the
// app signed, for those who may see that document.
import { readFile } from 'node:fs/promises'
import type { FastifyInstance, FastifyRequest } from 'fastify'
import { z } from 'zod'
import type { Policy } from '../../../core/access/policy.ts'
import { requireUser } from '../../../core/auth/require-user.ts'
import { ERR_BODY_TOO_LARGE } from '../../../core/http/errors.ts'
import { parseInput } from '../../../core/http/validate.ts'
import { ERR_PDF_INVALID } from '../pdf/errors.ts'
import type { SigningSessionManager } from '../sessions/signing-session-manager.ts'
import type { SignatureServices } from '../signature-services-type.ts'
import { findVisibleSignedDocument } from '../signing/signed-document-access.ts'
import { ERR_VERIFY_NO_PDF } from './errors.ts'
import type { VerificationReport } from './verification-report.ts'
import { assertWithinVerifyLimits } from './verify-limits.ts'
import { createVerifyRateLimit } from './verify-rate-limit.ts'

/** Largest PDF the verifier reads (decoded). */
export const MAX_VERIFY_PDF_BYTES = 25 * 1024 * 1024
const JSON_BODY_LIMIT = Math.ceil(MAX_VERIFY_PDF_BYTES * 4 / 3) + 64 * 1024

const jsonBody = z.strictObject({ pdf: z.string().min(1).regex(/^[A-Za-z0-9+/]+={0,2}$/, 'base64') })
const idParams = z.strictObject({ id: z.string().min(1).max(64) })

/**
 * 'upload': a file from anyone, checked against the verify limits and read in the verify lane
 * (its own workers and bounded queue). 'stored': a document this app signed, shown to those who
 * may see it, read in the PDF workers.
 */
export type VerifySource = 'upload' | 'stored'

export interface Verifier {
  verify(pdf: Uint8Array, source: VerifySource): Promise<VerificationReport>
}

/** The verifier of this app: its CA and the TRUST_ANCHORS files as anchors, in worker threads. */
export async function createVerifier(services: Pick<SignatureServices, 'pdf' | 'verifying' | 'config' | 'certificateAuthority' | 'pki'>): Promise<Verifier> {
  const anchors = [services.certificateAuthority.certPem]
  for (const file of services.config.verify.trust_anchors) {
    const text = await readFile(file, 'utf8').catch((error: Error) => { throw new Error(`TRUST_ANCHORS: cannot read ${file}: ${error.message}`) })
    if (!text.includes('-----BEGIN CERTIFICATE-----')) throw new Error(`TRUST_ANCHORS: ${file} holds no PEM certificate`)
    anchors.push(text)
  }
  const online = services.config.verify.online_revocation ? { timeoutMs: 5_000, maxBytes: 10 * 1024 * 1024 } : null
  const { max_revisions: maxRevisions, max_objects: maxObjects, max_revision_objects: maxRevisionObjects } = services.config.verify
  return {
    async verify(pdf, source) {
      // Before the queue: a refusal costs a byte scan, no worker.
      if (source === 'upload') assertWithinVerifyLimits(pdf, { maxRevisions, maxObjects, maxRevisionObjects })
      const pool = source === 'upload' ? services.verifying : services.pdf
      // The app's CA answers for its own certificates from its register (the CRL /pki/crl serves).
      return pool.run('verifyPdf', pdf, { trustAnchors: anchors, online, issuerCrls: [await services.pki.crl()] })
    },
  }
}

export async function verifyApi(app: FastifyInstance, { services, verifier, policy, sessions }: { services: SignatureServices; verifier: Verifier; policy: Policy; sessions: SigningSessionManager }) {
  const limit = createVerifyRateLimit(services.config.verify.rate_per_minute)
  app.addContentTypeParser('application/pdf', { parseAs: 'buffer', bodyLimit: MAX_VERIFY_PDF_BYTES }, (_request, body, done) => done(null, body))

  app.post('/api/verify', {
    bodyLimit: JSON_BODY_LIMIT,
    config: { bodyTypes: ['application/pdf'] },
    // Before the body is read: a refusal must not first parse up to 25 MiB (issue 35 item 12).
    onRequest: (request, _reply, done) => {
      try {
        // A host that keeps the verifier to its own people (verify.public false): the panels'
        // verify page posts here too, so the route stays and refuses the anonymous.
        if (!services.config.verify.public) requireUser(request.user)
        limit(request.ip)
      } catch (error) {
        return done(error as Error)
      }
      done()
    },
  }, async (request, reply) => {
    const pdf = uploadedPdf(request)
    if (pdf.length > MAX_VERIFY_PDF_BYTES) throw ERR_BODY_TOO_LARGE(`The PDF is larger than ${MAX_VERIFY_PDF_BYTES / 1024 / 1024} MiB`)
    if (!pdf.subarray(0, 1024).includes('%PDF-')) throw ERR_PDF_INVALID('The upload is not a PDF (no %PDF- header)')
    const report = await verifier.verify(pdf, 'upload')
    return reply.header('cache-control', 'no-store').send(report)
  })

  app.get<{ Params: { uuid: string } }>('/api/signatures/:uuid/verification', async (request, reply) => {
    const row = await findVisibleSignedDocument(services.signatures, policy, requireUser(request.user), request.params.uuid)
    const report = await verifier.verify(await services.disk.get(row.document_key), 'stored')
    return reply.header('cache-control', 'private, no-store').send(report)
  })

  app.get('/api/signing-sessions/:id/verification', async (request, reply) => {
    const { id } = parseInput(idParams, request.params, 'params')
    const document = await sessions.document(request.user, id)
    return reply.header('cache-control', 'private, no-store').send(await verifier.verify(document.bytes, 'stored'))
  })
}

function uploadedPdf(request: FastifyRequest): Buffer {
  if (Buffer.isBuffer(request.body)) return request.body
  if (request.body === undefined || request.body === null) throw ERR_VERIFY_NO_PDF()
  return Buffer.from(parseInput(jsonBody, request.body, 'body').pdf, 'base64')
}
