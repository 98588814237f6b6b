import { MAX_UPLOAD_PDF_BYTES } from '../signing/uploaded-pdf.ts'
import { documentDeps } from './session-create-document.ts'
import type { SessionContext } from './session-context.ts'
import { signedDocumentPath, signLinkPath, signLinkToken } from './sign-link-tokens.ts'

/** An external signer as the mail sender needs them: name, address and the links with their token. */
export async function externalRecipient(ctx: SessionContext, requestId: string): Promise<{ name: string; email: string; signUrl: string; documentUrl: string } | null> {
  const request = await ctx.deps.repository.findRequest(requestId)
  if (!request?.signer_email) return null
  const token = signLinkToken(documentDeps(ctx).secrets, request.id)
  return { name: request.signer_name ?? request.signer_email, email: request.signer_email, signUrl: signLinkPath(token), documentUrl: signedDocumentPath(token) }
}

export function openSignCode(ctx: SessionContext, sealed: string, requestId: string): string {
  return documentDeps(ctx).secrets.open(sealed, requestId)
}

/** The completed document for the "completed" mail: attached up to 10 MiB, else the mail's link is the way. */
export async function signedDocumentForMail(ctx: SessionContext, sessionId: string): Promise<{ bytes: Buffer; fileName: string } | null> {
  const session = await ctx.deps.repository.findSession(sessionId)
  if (session?.status !== 'completed') return null
  const bytes = await ctx.deps.disk.get(session.current_document_key)
  if (bytes.length > MAX_UPLOAD_PDF_BYTES) return null
  const base = session.signable_title.replace(/\.pdf$/i, '').replace(/[^A-Za-z0-9._-]+/g, '-').slice(0, 80) || 'document'
  return { bytes, fileName: `${base}-signed.pdf` }
}
