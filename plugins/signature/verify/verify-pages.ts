// The verifier page: public at /verify (no sign-in), and inside a panel at /<panel>/verify, where
// ?signature=<uuid> or ?session=<id> shows the report of a document the app signed.
import { createReadStream } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import type { FastifyInstance } from 'fastify'
import { z } from 'zod'
import type { NavigationItem, PanelContext } from '../../../core/panel/panel-plugin.ts'
import { parseInput } from '../../../core/http/validate.ts'

const HERE = path.dirname(fileURLToPath(import.meta.url))
const VIEW = path.join(HERE, '..', 'views', 'verify.eta')
const SCRIPT = path.join(HERE, '..', 'public', 'verify.js')
export const VERIFY_SCRIPT_URL = '/verify/verify.js'

const query = z.strictObject({
  signature: z.string().regex(/^[0-9a-fA-F-]{36}$/, 'a signature uuid').optional(),
  session: z.string().min(1).max(64).regex(/^[A-Za-z0-9_-]+$/, 'a session id').optional(),
})

/** The public page (unless the host keeps the verifier to its people) and the script the panels' page uses too; registered once by the app-level part. */
export function mountPublicVerifyPage(app: FastifyInstance, { publicPage }: { publicPage: boolean }): void {
  if (publicPage) {
    app.get('/verify', async (_request, reply) =>
      reply.page(VIEW, { config: { api: '/api/verify', source: null }, scripts: [VERIFY_SCRIPT_URL] }, { title: 'Verify a signed PDF' }))
  }
  app.get(VERIFY_SCRIPT_URL, async (_request, reply) =>
    reply.type('text/javascript; charset=utf-8').header('cache-control', 'public, max-age=3600').send(createReadStream(SCRIPT)))
}

export function verifyNavigation(panel: PanelContext): NavigationItem {
  return { label: 'Verify a PDF', url: `/${panel.path}/verify`, group: 'Signatures' }
}

/** The same page in a panel; the report of a stored document comes from its own API, which checks access. */
export function mountPanelVerifyPage(panel: PanelContext, app: FastifyInstance): void {
  app.signature.links.verify ??= (target) => `/${panel.path}/verify?${'signature' in target ? `signature=${encodeURIComponent(target.signature)}` : `session=${encodeURIComponent(target.session)}`}`
  app.get('/verify', async (request, reply) => {
    const { signature, session } = parseInput(query, request.query, 'query')
    const source = signature ? `/api/signatures/${signature}/verification` : session ? `/api/signing-sessions/${session}/verification` : null
    return reply.page(VIEW, { config: { api: '/api/verify', source }, scripts: [VERIFY_SCRIPT_URL] }, { title: source ? 'Verification report' : 'Verify a signed PDF' })
  })
}
