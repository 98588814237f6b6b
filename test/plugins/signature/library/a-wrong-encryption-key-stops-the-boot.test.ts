// Issue 36 item 14: an instance started with another SIGNATURE_ENCRYPTION_KEY than the one the
// database's secrets were sealed with booted silently, then answered every signing with 500. The
// boot checks the key against a sealed secret and stops with a message naming the variable.
import { randomBytes } from 'node:crypto'
import t from 'tap'
import { buildApp } from '../../../../host-app/app.ts'
import { login } from '../../../helpers/app.ts'
import { isolatedEnv } from '../../../helpers/test-env.ts'

t.test('a key that does not open the sealed secrets stops the boot, naming SIGNATURE_ENCRYPTION_KEY', async (t) => {
  const { env, cleanup } = await isolatedEnv()
  t.teardown(cleanup)
  const given = process.env.SIGNATURE_ENCRYPTION_KEY
  t.teardown(() => { if (given === undefined) delete process.env.SIGNATURE_ENCRYPTION_KEY; else process.env.SIGNATURE_ENCRYPTION_KEY = given })
  const right = randomBytes(32).toString('hex')
  const settings = { ...env, WEBHOOKS_ALLOW_PRIVATE: true }

  process.env.SIGNATURE_ENCRYPTION_KEY = right
  const first = await buildApp({ env: settings })
  const cookie = await login(first, 'admin@example.com')
  const created = await first.inject({ method: 'POST', url: '/api/webhooks', headers: { cookie }, payload: { url: 'http://127.0.0.1:9/hook', events: ['session.created'] } })
  t.equal(created.statusCode, 201, 'a webhook endpoint (its secret sealed with the key) is stored')
  await first.close()

  process.env.SIGNATURE_ENCRYPTION_KEY = randomBytes(32).toString('hex')
  await t.rejects(buildApp({ env: settings }), /SIGNATURE_ENCRYPTION_KEY/, 'another key stops the boot with a message naming the variable')

  process.env.SIGNATURE_ENCRYPTION_KEY = right
  const again = await buildApp({ env: settings })
  t.teardown(() => again.close())
  t.equal((await again.inject({ method: 'GET', url: '/api/webhooks', headers: { cookie: await login(again, 'admin@example.com') } })).statusCode, 200, 'the right key boots')
})
