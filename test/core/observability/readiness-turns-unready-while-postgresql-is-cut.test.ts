// /readyz on PostgreSQL: 200 while `select 1` answers, 503 naming the database while the network
// to it drops everything (a TCP proxy in this test, between the app and the shared server, stops
// forwarding; the server itself is never touched), and 200 again once packets flow. The check is
// bounded by READINESS_TIMEOUT_MS and keeps at most one query in flight, so the probes never
// exhaust the app's pool while the database hangs.
import { randomBytes } from 'node:crypto'
import { createServer, connect, type Socket } from 'node:net'
import pg from 'pg'
import t from 'tap'
import { poolStatsOf } from '../../../core/db/database.ts'
import { buildApp } from '../../../host-app/app.ts'
import { until } from '../../helpers/eventually.ts'
import { isolatedEnv } from '../../helpers/test-env.ts'
import { postgresUnreachable, TEST_DATABASE_URL } from '../db/engines.ts'

/** A proxy to PostgreSQL that can be cut (nothing forwarded either way, no socket closed) and restored. */
async function cuttableProxy(target: URL) {
  let cut = false
  const pairs: Array<[Socket, Socket | undefined]> = []
  const server = createServer((client) => {
    const pair: [Socket, Socket | undefined] = [client, undefined]
    pairs.push(pair)
    const join = () => {
      const upstream = connect(Number(target.port || 5432), target.hostname)
      pair[1] = upstream
      client.pipe(upstream).pipe(client)
      upstream.on('error', () => client.destroy())
      client.on('error', () => upstream.destroy())
    }
    if (cut) client.pause()
    else join()
    ;(client as Socket & { join?: () => void }).join = join
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return {
    port: (server.address() as { port: number }).port,
    cut() {
      cut = true
      for (const [client, upstream] of pairs) { client.pause(); upstream?.pause() }
    },
    restore() {
      cut = false
      for (const pair of pairs) {
        if (!pair[1]) (pair[0] as Socket & { join: () => void }).join()
        pair[0].resume()
        pair[1]?.resume()
      }
    },
    async close() {
      for (const [client, upstream] of pairs) { client.destroy(); upstream?.destroy() }
      await new Promise((resolve) => server.close(resolve))
    },
  }
}

t.test('readiness follows PostgreSQL through a cut and back', { skip: await postgresUnreachable() ?? false }, async (t) => {
  const target = new URL(TEST_DATABASE_URL)
  const proxy = await cuttableProxy(target)
  const schema = `ready_${randomBytes(5).toString('hex')}`
  const admin = new pg.Client({ connectionString: TEST_DATABASE_URL })
  await admin.connect()
  await admin.query(`create schema "${schema}"`)
  const { env, cleanup } = await isolatedEnv()
  const viaProxy = new URL(TEST_DATABASE_URL)
  viaProxy.host = `127.0.0.1:${proxy.port}`
  const app = await buildApp({ env: { ...env, DATABASE_URL: viaProxy.href, DATABASE_SCHEMA: schema, READINESS_TIMEOUT_MS: 1000 } })
  t.teardown(async () => {
    proxy.restore()
    await app.close()
    await proxy.close()
    await admin.query(`drop schema if exists "${schema}" cascade`)
    await admin.end()
    await cleanup()
  })
  await app.ready()
  const readyz = () => app.inject({ url: '/readyz' })

  const before = await readyz()
  t.equal(before.statusCode, 200)
  t.same(before.json(), { status: 'ready', checks: { lifecycle: 'ok', migrations: 'ok', database: 'ok' } })

  proxy.cut()
  let cut = await readyz()
  await until(t, 'the probe says unready', async () => (cut = await readyz()).statusCode === 503)
  t.same(cut.json(), { status: 'unready', checks: { lifecycle: 'ok', migrations: 'ok', database: 'unreachable' } })
  t.equal((await app.inject({ url: '/healthz' })).statusCode, 200, 'liveness does not depend on the database')
  // Probes while it hangs: still 503, and they do not take a connection each from the pool.
  const pool = poolStatsOf(app.signature.database.db)!
  const inUse = () => { const now = pool()!; return now.total - now.idle + now.waiting }
  const held = inUse()
  for (let i = 0; i < 5; i++) t.equal((await readyz()).statusCode, 503)
  t.ok(inUse() - held < 5, `5 more probes, ${inUse() - held} more connections in use or waiting`)

  proxy.restore()
  let back = await readyz()
  await until(t, 'the probe says ready again', async () => (back = await readyz()).statusCode === 200)
  t.same(back.json().checks.database, 'ok')
})
