// From the moment SIGTERM reaches npm start's process, /readyz answers 503 while the server still
// serves every request for SHUTDOWN_DRAIN_MS, so a load balancer takes the instance out before it
// closes; then it closes and exits 0.
import t from 'tap'
import { Client, startInstance } from '../../helpers/instances.ts'
import { isolatedEnv } from '../../helpers/test-env.ts'

t.test('SIGTERM: unready at once, still serving during the drain, then a clean exit', async (t) => {
  const { env, cleanup } = await isolatedEnv()
  t.teardown(cleanup)
  // Long enough that the checks below run inside it on a loaded machine; the test waits it out.
  const instance = await startInstance('draining', { ...Object.fromEntries(Object.entries(env).map(([k, v]) => [k, String(v)])), SHUTDOWN_DRAIN_MS: '15000' })
  t.teardown(() => instance.stop())
  const client = new Client(instance.url)
  const exited = new Promise<number | null>((resolve) => instance.child.once('exit', (code) => resolve(code)))

  const ready = await client.request('GET', '/readyz')
  t.equal(ready.status, 200)
  t.equal((await ready.json()).checks.lifecycle, 'ok')

  instance.child.kill('SIGTERM')
  // The signal is handled between two turns of the loop: poll until it was.
  let draining: Response | undefined
  for (let i = 0; i < 200; i++) {
    draining = await client.request('GET', '/readyz')
    if (draining.status === 503) break
  }
  t.equal(draining?.status, 503, 'unready once the signal arrived')
  // On PostgreSQL the database check is there too, and still answers: only the lifecycle is not ready.
  const expectedChecks = process.env.DATABASE_URL ? { lifecycle: 'shutting-down', migrations: 'ok', database: 'ok' } : { lifecycle: 'shutting-down', migrations: 'ok' }
  t.same(await draining?.json(), { status: 'unready', checks: expectedChecks })
  t.equal((await client.request('GET', '/healthz')).status, 200, 'alive while draining')
  await client.login('admin@example.com')
  t.equal((await client.request('GET', '/api/users')).status, 200, 'requests are still served during the drain')

  t.equal(await exited, 0, 'closed and exited cleanly after the drain')
})
