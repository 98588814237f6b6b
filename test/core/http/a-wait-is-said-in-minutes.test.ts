import t from 'tap'
import { waitInWords } from '../../../core/http/wait-in-words.ts'
import { buildTestApp } from '../../helpers/app.ts'

t.test('seconds of Retry-After in words people read', async (t) => {
  t.same([1, 59, 60, 61, 900, 899, 7199, 7200, 7201].map(waitInWords), [
    'in under a minute', 'in under a minute', 'in 1 minute', 'in 2 minutes', 'in 15 minutes', 'in 15 minutes', 'in 120 minutes', 'in 120 minutes', 'in 3 hours',
  ])
})

t.test('a locked sign-in says the wait in minutes; the header keeps the seconds', async (t) => {
  const app = await buildTestApp(t, { throttle: { windowSeconds: 900, maxFailuresPerEmail: 2, maxFailuresPerClient: 100 } })
  const attempt = (password: string) => app.inject({ method: 'POST', url: '/api/auth/login', payload: { email: 'staff@example.com', password } })
  await attempt('bad')
  await attempt('bad')
  const locked = await attempt('password')
  t.equal(locked.statusCode, 429)
  t.equal(locked.json().message, 'Too many failed sign-ins; try again in 15 minutes')
  t.ok(Number(locked.headers['retry-after']) > 840, 'Retry-After in seconds')
})
