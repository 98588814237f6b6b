import t from 'tap'
import { createMemoryLoginThrottle } from '../../../core/auth/login-throttle.ts'
import { buildTestApp } from '../../helpers/app.ts'

const attempt = (app: Awaited<ReturnType<typeof buildTestApp>>, email: string, password: string, ip = '10.1.1.1') =>
  app.inject({ method: 'POST', url: '/api/auth/login', payload: { email, password }, remoteAddress: ip })

t.test('repeated failures for one e-mail lock it out with 429 and Retry-After, even with the right password', async (t) => {
  const app = await buildTestApp(t, { throttle: { windowSeconds: 60, maxFailuresPerEmail: 3, maxFailuresPerClient: 100 } })
  for (let i = 0; i < 3; i++) t.equal((await attempt(app, 'staff@example.com', 'bad', `10.0.0.${i}`)).statusCode, 401)
  const locked = await attempt(app, 'staff@example.com', 'password', '10.0.0.99')
  t.equal(locked.statusCode, 429)
  t.equal(locked.json().code, 'ERR_TOO_MANY_ATTEMPTS')
  const retry = Number(locked.headers['retry-after'])
  t.ok(retry > 0 && retry <= 60, `Retry-After ${retry}`)
  t.equal((await attempt(app, 'admin@example.com', 'password', '10.0.0.99')).statusCode, 200, 'other accounts are unaffected')
})

t.test('repeated failures from one client lock that client out across e-mails', async (t) => {
  const app = await buildTestApp(t, { throttle: { windowSeconds: 60, maxFailuresPerEmail: 100, maxFailuresPerClient: 4 } })
  for (let i = 0; i < 4; i++) t.equal((await attempt(app, `ghost${i}@example.com`, 'bad', '10.9.9.9')).statusCode, 401)
  t.equal((await attempt(app, 'admin@example.com', 'password', '10.9.9.9')).statusCode, 429)
  t.equal((await attempt(app, 'admin@example.com', 'password', '10.9.9.10')).statusCode, 200, 'another client still signs in')
})

t.test('the lock expires with the window, and a success resets the e-mail counter', async (t) => {
  let now = 1_000_000
  const throttle = createMemoryLoginThrottle({ windowSeconds: 60, maxFailuresPerEmail: 2, maxFailuresPerClient: 100 }, () => now)
  await throttle.recordFailure('a@x.io', 'c1')
  await throttle.recordFailure('A@x.io', 'c1')
  t.equal(await throttle.retryAfter('a@x.io', 'c2'), 60, 'case-insensitive e-mail key')
  now += 59_000
  t.equal(await throttle.retryAfter('a@x.io', 'c2'), 1)
  now += 1_000
  t.equal(await throttle.retryAfter('a@x.io', 'c2'), 0, 'window over')
  await throttle.recordFailure('a@x.io', 'c1')
  await throttle.recordSuccess('a@x.io', 'c1')
  await throttle.recordFailure('a@x.io', 'c1')
  t.equal(await throttle.retryAfter('a@x.io', 'c1'), 0, 'the success cleared the earlier failure')
})
