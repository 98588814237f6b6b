import path from 'node:path'
import { fileURLToPath } from 'node:url'
import type { FastifyInstance } from 'fastify'
import { z } from 'zod'
import { requireUser } from '../../../core/auth/require-user.ts'
import type { NavigationItem, PanelContext } from '../../../core/panel/panel-plugin.ts'
import { parseInput } from '../../../core/http/validate.ts'
import { navigate, wantsFragment } from '../../../core/views/htmx.ts'
import { assertPermission } from '../../../core/access/assert-permission.ts'
import type { FormBody } from '../../../core/views/form-body.ts'
import { SESSION_PERMISSION } from '../permissions.ts'
import { formOf, placeErrors, sendFormModel, sessionBodyOf, type SendFormModel } from './session-send-form.ts'
import { setNotice } from '../../../core/views/notice.ts'
import { SESSION_ROUTE } from '../route-names.ts'
import { signerLines } from './signer-status.ts'
import { historyLines } from './session-history.ts'
import type { SessionJson } from './session-views.ts'

const VIEWS = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'views')
const LIST_VIEW = path.join(VIEWS, 'sessions.eta')
const SESSION_VIEW = path.join(VIEWS, 'session.eta')
const NEW_VIEW = path.join(VIEWS, 'session-new.eta')
const FORM_VIEW = path.join(VIEWS, 'session-send-form.eta')

export const SESSION_STATUSES = ['active', 'completed', 'declined', 'cancelled'] as const
const listQuery = z.strictObject({
  status: z.enum(['all', ...SESSION_STATUSES]).optional(),
  part: z.enum(['all', 'started', 'signer']).optional(),
})
const idParams = z.strictObject({ id: z.string().min(1).max(64) })

export function sessionsNavigation(panel: PanelContext): NavigationItem {
  return { label: 'Signing sessions', url: `/${panel.path}/sessions`, group: 'Signatures' }
}

/**
 * The pages of signing sessions (SignaturePlugin page 'sessions'): the sessions a person started
 * or signs in, by status, and one session with each signer's status and times, the audit trail as
 * a timeline, its current PDF and, for whoever may, Cancel with a reason. Every rule is the
 * manager's: these pages see and do exactly what /api/signing-sessions lets the same person.
 */
export function mountSessionPages(panel: PanelContext, app: FastifyInstance): void {
  const sessions = app.signature.sessions
  app.signature.links.sendForSignature ??= (query) => panel.url(SESSION_ROUTE.new, {}, query)

  app.get('/sessions', { config: { name: SESSION_ROUTE.index } }, async (request, reply) => {
    const user = requireUser(request.user)
    const { status = 'all', part = 'all' } = parseInput(listQuery, request.query, 'query')
    const all = await sessions.list(user)
    const involved = (s: SessionJson) => part === 'all' ? (s.createdBy === user.id || s.requests.some((r) => r.signer.id === user.id))
      : part === 'started' ? s.createdBy === user.id : s.requests.some((r) => r.signer.id === user.id)
    const shown = all.filter((s) => involved(s) && (status === 'all' || s.status === status))
    const counts = Object.fromEntries(SESSION_STATUSES.map((name) => [name, all.filter((s) => involved(s) && s.status === name).length]))
    return reply.page(LIST_VIEW, {
      sessions: shown, status, part, counts, statuses: SESSION_STATUSES,
      newUrl: app.policy.can(user.role, SESSION_PERMISSION.create) ? panel.url(SESSION_ROUTE.new) : null,
    }, { title: 'Signing sessions' })
  })

  // Send for signature: the form, its partial for htmx (template or record changed), and the send.
  const formData = (form: SendFormModel) => ({ form, action: panel.url(SESSION_ROUTE.create), formUrl: panel.url(SESSION_ROUTE.new) })
  app.get('/sessions/new', { config: { name: SESSION_ROUTE.new } }, async (request, reply) => {
    const user = requireUser(request.user)
    assertPermission(app.policy, user, SESSION_PERMISSION.create)
    const form = await sendFormModel(app, user, request.query as FormBody)
    if (wantsFragment(request)) return reply.fragment(FORM_VIEW, formData(form))
    return reply.page(NEW_VIEW, { formHtml: await app.renderView(request, FORM_VIEW, formData(form)) }, { title: 'Send for signature' })
  })

  app.post('/sessions', { config: { name: SESSION_ROUTE.create } }, async (request, reply) => {
    const user = requireUser(request.user)
    assertPermission(app.policy, user, SESSION_PERMISSION.create)
    const form = await sendFormModel(app, user, formOf(request))
    if (!form.signable) {
      form.errors.signable = 'Choose a record.'
      return reply.code(422).fragment(FORM_VIEW, formData(form))
    }
    const { body, slotAt } = sessionBodyOf(form)
    try {
      const session = await sessions.create(user, body, request.ip)
      setNotice(request, `Sent for signature: ${session.signable.title}.`)
      return navigate(request, reply, panel.url(SESSION_ROUTE.show, { id: session.id }))
    } catch (error) {
      if (!placeErrors(form, error, slotAt)) throw error
      return reply.code(422).fragment(FORM_VIEW, formData(form))
    }
  })

  app.get('/sessions/:id', { config: { name: SESSION_ROUTE.show } }, async (request, reply) => {
    const user = requireUser(request.user)
    const { id } = parseInput(idParams, request.params, 'params')
    const session = await sessions.get(user, id)
    const names = new Map(session.requests.map((r) => [r.signer.id, r.signer.name ?? r.signer.id]))
    // Everyone the history names (the creator, an admin who cancelled), by name rather than id.
    for (const id of [session.createdBy, ...(session.events ?? []).map((e) => e.actor)]) {
      if (id && !names.has(id)) names.set(id, (await app.users.findById(id))?.name ?? id)
    }
    // The preview: each page of the current revision at its displayed aspect, loaded lazily.
    const pages = (await app.signature.pageImages.pages(await sessions.documentPath(user, id)))
      .map((size, index) => ({ number: index + 1, url: `/api/signing-sessions/${encodeURIComponent(id)}/pages/${index + 1}`, width: Math.round(size.width), height: Math.round(size.height) }))
    return reply.page(SESSION_VIEW, {
      session,
      pages,
      signers: signerLines(session, user.id),
      history: historyLines(session.events ?? []),
      names,
      mayCancel: session.status === 'active' && sessions.mayCancel(user, session),
      verifyUrl: app.signature.links.verify?.({ session: session.id }) ?? null,
    }, { title: session.signable.title })
  })

  // Remind: mails whoever's turn it is, at most once an hour (the manager's rule; 429 otherwise).
  app.post('/sessions/:id/remind', { config: { name: SESSION_ROUTE.remind } }, async (request, reply) => {
    const { id } = parseInput(idParams, request.params, 'params')
    await sessions.remind(request.user, id, request.ip)
    setNotice(request, 'Reminder sent to the signers whose turn it is.')
    return navigate(request, reply, panel.url(SESSION_ROUTE.show, { id }))
  })

  app.post('/sessions/:id/cancel', { config: { name: SESSION_ROUTE.cancel } }, async (request, reply) => {
    const { id } = parseInput(idParams, request.params, 'params')
    await sessions.cancel(request.user, id, request.ip, request.body)
    setNotice(request, 'The session is cancelled. Nobody can sign it any more.')
    return navigate(request, reply, panel.url(SESSION_ROUTE.show, { id }))
  })
}
