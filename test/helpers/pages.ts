import type { FastifyInstance, LightMyRequestResponse } from 'fastify'

/** The request headers a browser sends for a page navigation. */
export const NAVIGATION = { accept: 'text/html,application/xhtml+xml' } as const

/** The raw `name=value` of the response's first cookie, still URL-encoded (secure-session values contain ';'). */
export function cookieOf(response: LightMyRequestResponse): string | undefined {
  const header = response.headers['set-cookie']
  const first = Array.isArray(header) ? header[0] : header
  return first?.split(';')[0]
}

/** The token of a page's <meta name="csrf-token">. */
export function csrfMeta(html: string): string {
  const match = /<meta name="csrf-token" content="([^"]+)">/.exec(html)
  if (!match) throw new Error('the page has no csrf-token meta tag')
  return match[1]!
}

/** GET a page as a browser would (optionally as htmx), with a session cookie. */
export function getPage(app: FastifyInstance, url: string, cookie?: string, headers: Record<string, string> = {}) {
  return app.inject({ method: 'GET', url, headers: { ...NAVIGATION, ...(cookie ? { cookie } : {}), ...headers } })
}

/** The csrf token bound to a session, read from a page like the browser's scripts do. */
export async function csrfFor(app: FastifyInstance, cookie: string): Promise<string> {
  return csrfMeta((await getPage(app, '/dashboard', cookie)).body)
}

/** An htmx write from a page: form-encoded body, the x-csrf-token header, HX-Request. */
export function htmxWrite(app: FastifyInstance, method: 'POST' | 'DELETE', url: string, cookie: string, token: string | undefined, form?: Record<string, string>) {
  return app.inject({
    method,
    url,
    headers: {
      cookie,
      accept: 'text/html',
      'hx-request': 'true',
      ...(token === undefined ? {} : { 'x-csrf-token': token }),
      ...(form ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
    },
    payload: form ? new URLSearchParams(form).toString() : undefined,
  })
}

/** Every value of an attribute in the HTML, in order (e.g. all data-module codes). */
export function attributeValues(html: string, attribute: string): string[] {
  return [...html.matchAll(new RegExp(`${attribute}="([^"]*)"`, 'g'))].map((m) => m[1]!)
}

/**
 * The whole application with something more registered before it is ready (a test panel, a
 * route that throws). Closed on teardown like buildTestApp.
 */
export async function buildAppWith(t: { teardown(fn: () => unknown): void }, extra: (app: FastifyInstance) => unknown): Promise<FastifyInstance> {
  const { buildApp } = await import('../../host-app/app.ts')
  const { isolatedEnv } = await import('./test-env.ts')
  const { env, cleanup } = await isolatedEnv()
  const app = await buildApp({ env })
  t.teardown(async () => {
    await app.close()
    await cleanup()
  })
  await extra(app)
  await app.ready()
  return app
}
