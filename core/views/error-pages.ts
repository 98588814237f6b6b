import path from 'node:path'
import { fileURLToPath } from 'node:url'
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { statusText, type AppError } from '../http/errors.ts'
import { isNoPage } from '../http/no-page.ts'
import { isHtmx, navigate } from './htmx.ts'
import { loginUrl } from './safe-next.ts'

const HERE = path.dirname(fileURLToPath(import.meta.url))
const ERROR_VIEW = path.join(HERE, 'pages', 'error.eta')
const FLASH_VIEW = path.join(HERE, 'components', 'flash.eta')

const HEADINGS: Record<number, string> = {
  403: 'You cannot open this page',
  404: 'Page not found',
  500: 'Something went wrong',
}

/**
 * app.errorPages.render: the HTML face of every error a browser navigation meets. htmx requests
 * get the message as a flash, retargeted into the page's #flash region instead of the fragment
 * the request meant to replace.
 */
export async function renderErrorPage(app: FastifyInstance, request: FastifyRequest, reply: FastifyReply, error: AppError) {
  const status = error.statusCode
  if (status === 401 && (request.method === 'GET' || request.method === 'HEAD')) return navigate(request, reply, loginUrl(request.url))
  // A 5xx message may carry internals; the log has them, the page says only what happened.
  // A route miss's message names the method, which is for the API; a person reads plain words.
  const message = status >= 500 ? 'The server could not finish this request. Try again in a moment.'
    : isNoPage(error) ? 'Nothing is at this address. The link may be old or mistyped, or this part of the workspace may not be open yet.'
      : error.message
  try {
    if (isHtmx(request)) {
      const html = await app.renderView(request, FLASH_VIEW, { kind: 'error', message })
      // The code tells public/js/session-recovery.js an ERR_CSRF from any other 403.
      return reply.header('X-Error-Code', error.code).header('HX-Retarget', '#flash').header('HX-Reswap', 'innerHTML').type('text/html; charset=utf-8').send(html)
    }
    const heading = HEADINGS[status] ?? statusText(status)
    // The way back: the places this person may open, as in the top bar, besides the dashboard.
    const places = request.user ? (await app.topbar.shownTo(app.policy, request.user, '/', () => {})).filter((item) => item.url !== '/dashboard') : []
    const address = request.url.split('?')[0]
    return await reply.page(ERROR_VIEW, { status, heading, message, code: error.code, places, address: isNoPage(error) ? address : null }, { title: `${status} ${heading}` })
  } catch (renderError) {
    request.log.error({ err: renderError }, 'error page failed to render')
    return reply.type('text/plain; charset=utf-8').send(`${status} ${statusText(status)}`)
  }
}
