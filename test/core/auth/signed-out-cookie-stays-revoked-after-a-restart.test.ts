import t from 'tap'
import { mkdir, writeFile } from 'node:fs/promises'
import path from 'node:path'
import type { FastifyInstance } from 'fastify'
import type { AppEnv } from '../../../config/app.ts'
import { buildApp } from '../../../host-app/app.ts'
import { DEMO, login } from '../../helpers/app.ts'
import { getPage } from '../../helpers/pages.ts'
import { isolatedEnv } from '../../helpers/test-env.ts'

const me = (app: FastifyInstance, cookie: string) => app.inject({ url: '/api/auth/me', headers: { cookie } })

// A real restart: the first app is closed, a second one is built on the same storage folder
// (and, on PostgreSQL, the same schema), as `npm start` would after a crash or a deploy.
for (const store of ['memory', 'database'] as const) {
  t.test(`${store} store: revoked cookies stay revoked after a restart`, async (t) => {
    const { env: isolated, cleanup } = await isolatedEnv()
    const env: Partial<AppEnv> = { ...isolated, USERS_STORE: store }
    t.teardown(cleanup)

    const first = await buildApp({ env })
    const signedOut = await login(first, DEMO.manager.email)
    const kept = await login(first, DEMO.staff.email)
    const demoted = await login(first, 'olivia.hughes@example.com')
    const deleted = await login(first, 'noah.silva@example.com')
    const admin = await login(first, DEMO.admin.email)
    t.equal((await first.inject({ method: 'POST', url: '/api/auth/logout', headers: { cookie: signedOut } })).statusCode, 204)
    t.equal((await me(first, signedOut)).statusCode, 401, 'refused at once')
    t.equal((await first.inject({ method: 'PATCH', url: '/api/users/u-001', headers: { cookie: admin }, payload: { role: 'manager' } })).statusCode, 200)
    t.equal((await me(first, demoted)).statusCode, 401, 'a role change signs the user out')
    t.equal((await first.inject({ method: 'DELETE', url: '/api/users/u-002', headers: { cookie: admin } })).statusCode, 204)
    t.equal((await me(first, deleted)).statusCode, 401, 'a deleted user is signed out')
    await first.close()

    const second = await buildApp({ env })
    t.teardown(() => second.close())
    const replayed = await me(second, signedOut)
    t.equal(replayed.statusCode, 401, 'the signed-out cookie is still refused')
    t.equal(replayed.json().code, 'ERR_UNAUTHENTICATED')
    const page = await getPage(second, '/dashboard', signedOut)
    t.equal(page.statusCode, 303, 'a page sends it to the login')
    t.match(page.headers.location, /^\/login/)
    t.equal((await me(second, demoted)).statusCode, 401, 'the cookie from before the role change is still refused')
    if (store === 'memory') t.equal((await second.inject({ url: '/api/users/u-002', headers: { cookie: kept } })).statusCode, 200, 'the deleted demo user is back (memory resets)')
    t.equal((await me(second, deleted)).statusCode, 401, 'but the cookie from before the delete is still refused')
    t.equal((await me(second, kept)).statusCode, 200, 'a cookie nobody revoked survives the restart')
    t.ok(await login(second, DEMO.manager.email), 'the signed-out user can sign in again')
  })
}

t.test('a damaged session version file stops the boot instead of reviving revoked cookies', async (t) => {
  const { env, cleanup } = await isolatedEnv()
  t.teardown(cleanup)
  const file = path.join(env.STORAGE_PATH!, 'disks', 'users', 'session-versions.json')
  await mkdir(path.dirname(file), { recursive: true })
  await writeFile(file, '{"u-manager": 3, "u-staff": ')
  await t.rejects(buildApp({ env: { ...env, USERS_STORE: 'memory' } }), /session version file .* is damaged/)
})
