import fc from 'fast-check'
import t from 'tap'
import type { FastifyInstance } from 'fastify'
import { buildTestApp, DEMO, login } from '../../helpers/app.ts'
import { cookieOf, getPage } from '../../helpers/pages.ts'

const ORIGIN = 'http://app.test'

/** Where a browser on http://app.test/login goes with this Location. */
const landsOn = (location: string) => new URL(location, `${ORIGIN}/login`).origin

/** GET /login?next=... while signed in: straight back to `next`. */
async function signedInRedirect(app: FastifyInstance, cookie: string, next: string) {
  const response = await app.inject({ method: 'GET', url: `/login?next=${encodeURIComponent(next)}`, headers: { cookie, host: 'app.test' } })
  return response
}

/** The sign-in form posted with `next`; one pre-sign-in session (cookie + token) serves every post. */
async function formPoster(app: FastifyInstance) {
  const form = await getPage(app, '/login')
  const cookie = cookieOf(form)!
  const token = /name="_csrf" value="([^"]+)"/.exec(form.body)![1]!
  return (next: string) => app.inject({
    method: 'POST',
    url: '/login',
    headers: { cookie, host: 'app.test', accept: 'text/html', 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams({ _csrf: token, email: DEMO.admin.email, password: 'password', next }).toString(),
  })
}

// Paths the URL parser folds into "//host" once it removes the dot segments.
const DOT_SEGMENT_ESCAPES = ['/.//evil.com', '/..//evil.com', '/a/..//evil.com/x', '/./\\evil.com', '/%2e//evil.com', '/%2E%2E//evil.com', '/a/%2e%2e//evil.com', '/.\t//evil.com', '/.\n/\\evil.com']

t.test('dot segments cannot fold next into a protocol-relative URL', async (t) => {
  const app = await buildTestApp(t)
  const cookie = await login(app, DEMO.admin.email)
  const post = await formPoster(app)
  for (const next of DOT_SEGMENT_ESCAPES) {
    const signedIn = await signedInRedirect(app, cookie, next)
    t.equal(signedIn.statusCode, 303, `GET ${JSON.stringify(next)}`)
    t.equal(landsOn(signedIn.headers.location as string), ORIGIN, `GET ${JSON.stringify(next)} -> ${signedIn.headers.location}`)
  }
  // The form shares safeNext with GET; the three reported values go through it too.
  for (const next of DOT_SEGMENT_ESCAPES.slice(0, 3)) {
    const posted = await post(next)
    t.equal(posted.statusCode, 303, `POST ${JSON.stringify(next)}`)
    t.equal(landsOn(posted.headers.location as string), ORIGIN, `POST ${JSON.stringify(next)} -> ${posted.headers.location}`)
  }
  // A local path with dot segments still arrives where the browser would have gone.
  t.equal((await signedInRedirect(app, cookie, '/admin/./users/../users?page=2')).headers.location, '/admin/users?page=2')
})

// Pieces an attacker strings together: separators, dot segments, encodings, whitespace the URL
// parser strips, schemes and hosts.
const piece = fc.constantFrom(
  '/', '//', '\\', '\\\\', '.', '..', '/./', '/../', '%2e', '%2E', '%2f', '%2F', '%5c', '%5C', '%00', '%09', '%0a', '%',
  '\t', '\n', '\r', ' ', '@', ':', '?', '#', ';', 'evil.com', 'app.test', 'javascript:', 'https:', 'http:', 'data:', 'x', 'admin', 'users',
)
const nextValue = fc.array(piece, { minLength: 1, maxLength: 8 }).map((parts) => parts.join(''))
  .chain((tail) => fc.constantFrom('', '/', '//', '/\\', '/.', '/..').map((head) => head + tail))

t.test('property: whatever next is, the Location stays on this origin (both routes)', async (t) => {
  const app = await buildTestApp(t)
  const cookie = await login(app, DEMO.admin.email)
  const post = await formPoster(app)
  await fc.assert(fc.asyncProperty(nextValue, async (next) => {
    const response = await signedInRedirect(app, cookie, next)
    return response.statusCode === 303 && landsOn(response.headers.location as string) === ORIGIN
  }), { seed: 20261115, numRuns: 300 })
  // Each post verifies a password (scrypt): fewer runs, same generator.
  await fc.assert(fc.asyncProperty(nextValue, async (next) => {
    const response = await post(next)
    return response.statusCode === 303 && landsOn(response.headers.location as string) === ORIGIN
  }), { seed: 20261116, numRuns: 25 })
  t.pass('every generated next stayed on the origin')
})
