// The session hook (core/auth/session.ts) looks the signed-in user up on every request: at once
// from a store that keeps its users in memory (findByIdNow), through a promise from any other.
// Both paths give the same answers: the user, a refusal once the session is revoked, and an
// error (not a signed-in request) when the store fails.
import { randomBytes } from 'node:crypto'
import Fastify from 'fastify'
import t, { type Test } from 'tap'
import { sessionPlugin, startSession } from '../../../core/auth/session.ts'
import { toPublicUser, type UserRepository } from '../../../core/auth/user-repository.ts'
import { MemoryUserRepository } from '../../../host-app/users/memory-user-repository.ts'

const ALICE = { id: 'u-alice', name: 'Alice', email: 'alice@example.com', role: 'staff', passwordHash: 'x', sessionVersion: 0 }

/** The real in-memory store, counting how it was asked; `promiseOnly` hides its synchronous lookup, as a database store has none. */
function countingStore(promiseOnly: boolean) {
  const store = new MemoryUserRepository([ALICE])
  const calls = { now: 0, promised: 0 }
  let failing = false
  const users: UserRepository = {
    ...bindAll(store),
    findById: (id) => {
      calls.promised++
      return failing ? Promise.reject(new Error('store down')) : store.findById(id)
    },
    findByIdNow: promiseOnly ? undefined : (id) => {
      calls.now++
      return store.findByIdNow(id)
    },
  }
  return { users, store, calls, fail: () => { failing = true } }
}

function bindAll(store: MemoryUserRepository): UserRepository {
  const methods = ['findById', 'findByEmail', 'list', 'create', 'update', 'delete', 'deleteMany', 'revokeSessions'] as const
  return Object.fromEntries(methods.map((name) => [name, (store[name] as (...args: unknown[]) => unknown).bind(store)])) as unknown as UserRepository
}

async function appWith(t: Test, users: UserRepository) {
  const app = Fastify()
  await app.register(sessionPlugin, { key: randomBytes(32), cookieName: 's', ttlSeconds: 3600, secure: false, users })
  app.post('/login', async (request) => { startSession(request, toPublicUser(ALICE), 0); return { ok: true } })
  app.get('/me', async (request) => ({ user: request.user?.id ?? null }))
  t.teardown(() => app.close())
  const login = await app.inject({ method: 'POST', url: '/login' })
  const header = login.headers['set-cookie']
  const cookie = (Array.isArray(header) ? header[0]! : header!).split(';')[0]!
  return { app, cookie }
}

for (const promiseOnly of [false, true]) {
  t.test(promiseOnly ? 'a store without a synchronous lookup is awaited' : 'a store in memory answers without a promise', async (t) => {
    const { users, store, calls, fail } = countingStore(promiseOnly)
    const { app, cookie } = await appWith(t, users)
    for (let i = 0; i < 3; i++) t.same((await app.inject({ url: '/me', headers: { cookie } })).json(), { user: ALICE.id })
    if (promiseOnly) t.same(calls, { now: 0, promised: 3 }, 'every request awaited findById')
    else t.same(calls, { now: 3, promised: 0 }, 'no request waited for a promise')

    await store.revokeSessions(ALICE.id)
    t.same((await app.inject({ url: '/me', headers: { cookie } })).json(), { user: null }, 'a revoked session is no session')

    if (promiseOnly) {
      const fresh = await appWith(t, users)
      fail()
      const response = await fresh.app.inject({ url: '/me', headers: { cookie: fresh.cookie } })
      t.equal(response.statusCode, 500, 'a failing store is an error, not an anonymous request')
      t.notMatch(response.body, /"user"/)
    }
  })
}
