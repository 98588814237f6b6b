import type { PublicUser } from '../../../core/auth/user-repository.ts'
import { ERR_SESSION_NOT_COMPLETED } from '../errors.ts'
import { visibleSession } from './session-access.ts'
import type { SessionContext } from './session-context.ts'
import type { CompletionCertificateData } from './completion-certificate-layout.ts'
import type { SigningSessionRequestTable, SigningSessionTable } from './session-tables.ts'

const EVENT_TEXT: Record<string, string> = {
  created: 'started the session', opened: 'opened the document', signed: 'signed', declined: 'declined',
  cancelled: 'cancelled the session', completed: 'every signer has signed', reminded: 'reminded the signers',
  sealed: 'added validation data and a document timestamp (PAdES B-LTA)',
}

export const certificateKey = (sessionId: string) => `sessions/${sessionId}/certificate.pdf`

/**
 * The certificate of completion of a completed session, for whoever may see the session: made
 * once (laid out in a PDF worker, certified by the application with DocMDP P=1, so nothing may
 * change it) and kept beside the session's revisions; 409 ERR_SESSION_NOT_COMPLETED before then.
 */
export async function completionCertificateOf(ctx: SessionContext, user: PublicUser | null | undefined, sessionId: string): Promise<{ bytes: Buffer; fileName: string }> {
  const { session, requests } = await visibleSession(ctx, user, sessionId)
  return certificateOf(ctx, session, requests)
}

/** The certificate without a viewer: for the "completed" e-mail, which goes to the session's own people. */
export async function completionCertificateForMail(ctx: SessionContext, sessionId: string): Promise<{ bytes: Buffer; fileName: string } | null> {
  const session = await ctx.deps.repository.findSession(sessionId)
  if (session?.status !== 'completed') return null
  return certificateOf(ctx, session, await ctx.deps.repository.requestsOf(session.id))
}

async function certificateOf(ctx: SessionContext, session: SigningSessionTable, requests: SigningSessionRequestTable[]): Promise<{ bytes: Buffer; fileName: string }> {
  if (session.status !== 'completed') throw ERR_SESSION_NOT_COMPLETED(`The session is ${session.status}: a certificate exists once every signer has signed`)
  const { disk, pdf, repository, users } = ctx.deps
  const key = certificateKey(session.id)
  const fileName = `${session.template_key}-${session.signable_id}-certificate.pdf`.replace(/[^A-Za-z0-9._-]/g, '_')
  if (await disk.exists(key)) return { bytes: await disk.get(key), fileName }

  const events = await repository.eventsOf(session.id)
  const person = async (id: string | null) => (id ? await users.findById(id) : null)
  const nameOf = async (id: string | null) => (await person(id))?.name ?? id ?? 'the system'
  const completedAt = session.closed_at ?? session.updated_at
  // An event without an actor on a request is its external signer's (verify, finalize).
  const externalName = (requestId: string | null) => requests.find((r) => r.id === requestId)?.signer_name ?? 'the system'
  const data: CompletionCertificateData = {
    title: session.signable_title, sessionId: session.id, template: session.template_key, mode: session.mode,
    createdBy: await nameOf(session.created_by), createdAt: session.created_at, completedAt,
    // The document as the last signature left it: the sealing (DSS and document timestamp) may
    // follow before or after the certificate is made, and only appends to it.
    frozenSha256: session.frozen_sha256, finalSha256: events.find((e) => e.event === 'completed')?.sha256_after ?? session.current_sha256,
    signers: await Promise.all(requests.filter((r) => r.status === 'signed').map(async (r) => {
      const signed = events.find((e) => e.event === 'signed' && e.request_id === r.id)
      const who = await person(r.signer_user_id)
      return {
        name: who?.name ?? r.signer_name ?? r.signer_user_id ?? '', email: who?.email ?? r.signer_email ?? '', slot: r.slot_key, signedAt: r.signed_at ?? signed?.created_at ?? '',
        address: signed?.ip_address ?? null, identifiedBy: identifiedByText(r.identified_by), userAgent: signed?.user_agent ?? null, sha256Before: signed?.sha256_before ?? null, sha256After: signed?.sha256_after ?? r.document_sha256,
      }
    })),
    events: await Promise.all(events.map(async (e) => ({
      at: e.created_at,
      text: `${e.event === 'completed' ? 'Completed:' : e.actor_user_id ? await nameOf(e.actor_user_id) : externalName(e.request_id)} ${EVENT_TEXT[e.event] ?? e.event}${e.request_id ? ` (${requests.find((r) => r.id === e.request_id)?.slot_key ?? ''})` : ''}${e.ip_address ? ` from ${e.ip_address}` : ''}`,
    }))),
  }
  const laidOut = await pdf.run('completionCertificate', data)
  const bytes = Buffer.from(await pdf.run('signDocument', laidOut, {
    stamps: [], signer: await ctx.deps.applicationSigner(), certify: { p: 1 },
    reason: `Certificate of completion: ${session.signable_title}`, signingTime: new Date(completedAt),
  }))
  // Made once: the page and the "completed" mail may make it at the same moment, and two makings
  // differ (each signature has its own timestamp). The first stored is the certificate; a later
  // one is dropped and the stored one answered, so the mail attaches what the page downloads.
  if (!(await disk.putIfAbsent(key, bytes))) return { bytes: await disk.get(key), fileName }
  return { bytes, fileName }
}

function identifiedByText(how: string | null | undefined): string | null {
  if (how === 'account') return 'signed in to their account'
  if (how === 'email-code') return 'a one-time code sent to their e-mail address'
  return null
}
