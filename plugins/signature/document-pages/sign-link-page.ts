import path from 'node:path'
import { fileURLToPath } from 'node:url'
import fastifyStatic from '@fastify/static'
import type { FastifyInstance } from 'fastify'
import { z } from 'zod'
import { parseInput } from '../../../core/http/validate.ts'
import { sendSignaturePad } from '../signer/signature-pad-asset.ts'

const HERE = path.dirname(fileURLToPath(import.meta.url))
const VIEW = path.join(HERE, '..', 'views', 'document-sign.eta')
const PUBLIC_DIR = path.join(HERE, '..', 'public')

/** Where the signing page of someone without an account loads its files from: no panel, no sign-in. */
export const SIGN_ASSETS = '/sign-assets/'

// Only what that page runs: the rest of the plugin's browser files stay inside the panels.
const PUBLIC_FILES = new Set([
  '/document-signing.js', '/document-signing-model.js', '/mount-component.js', '/coordinates.js', '/signature-drawing.js',
  '/documents.css', '/signature-font.css',
  '/fonts/dancing-script-latin-400-normal.woff2', '/fonts/dancing-script-latin-ext-400-normal.woff2',
])

const tokenParams = z.strictObject({ token: z.string().regex(/^[A-Za-z0-9_-]{16,128}$/, 'a sign link token') })

/**
 * /sign/<token>: the page an invitation mailed to someone without an account links to. It holds
 * no secret and asks nothing of the database: its script asks /api/sign-links/<token>, whose
 * answers (a code by e-mail, the code's cookie, the document, finalize) decide everything.
 * Registered once by the app-level part, outside every panel.
 */
export async function mountSignLinkPage(app: FastifyInstance): Promise<void> {
  app.get('/sign/:token', async (request, reply) => {
    const { token } = parseInput(tokenParams, request.params, 'params')
    const api = `/api/sign-links/${token}`
    reply.header('cache-control', 'private, no-store')
    // The token is in the address: no Referer may carry it to another site.
    reply.header('referrer-policy', 'no-referrer')
    return reply.page(VIEW, {
      config: { mode: 'link', api, pageUrl: `${api}/pages/__page__`, documentUrl: `${api}/document` },
      styles: [`${SIGN_ASSETS}documents.css`, `${SIGN_ASSETS}signature-font.css`],
      scripts: [`${SIGN_ASSETS}signature_pad.js`, `${SIGN_ASSETS}signature-drawing.js`],
      module: `${SIGN_ASSETS}document-signing.js`,
    }, { title: 'Sign a document' })
  })

  app.get(`${SIGN_ASSETS}signature_pad.js`, async (_request, reply) => sendSignaturePad(reply))
  await app.register(fastifyStatic, {
    root: PUBLIC_DIR, prefix: SIGN_ASSETS, decorateReply: false, index: false, wildcard: true,
    allowedPath: (pathName) => PUBLIC_FILES.has(pathName),
  })
}
