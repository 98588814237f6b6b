// Issue 36 item 9: the 503 a closing server answers had no `code` (Fastify's own body). A request
// that reaches the app while it shuts down (here: pipelined behind one still running, on a
// connection the server cannot close yet) answers 503 ERR_SHUTTING_DOWN with Connection: close.
import net from 'node:net'
import t from 'tap'
import { buildApp } from '../../../host-app/app.ts'
import { isolatedEnv } from '../../helpers/test-env.ts'
import { until } from '../../helpers/eventually.ts'

t.test('a request arriving while the server closes answers 503 ERR_SHUTTING_DOWN', async (t) => {
  const { env, cleanup } = await isolatedEnv()
  t.teardown(cleanup)
  const app = await buildApp({ env })
  let release!: () => void
  const held = new Promise<void>((resolve) => { release = resolve })
  let closing = false
  let running = false
  app.get('/test/held', async () => {
    running = true
    await held
    return { ok: true }
  })
  app.addHook('preClose', async () => { closing = true })
  await app.listen({ host: '127.0.0.1', port: 0 })
  const { port } = app.server.address() as net.AddressInfo

  const socket = net.connect(port, '127.0.0.1')
  let received = ''
  socket.on('data', (chunk) => { received += chunk.toString() })
  const ended = new Promise<void>((resolve) => socket.on('close', () => resolve()))
  socket.write('GET /test/held HTTP/1.1\r\nHost: x\r\n\r\n')
  await until(t, 'the held request runs', () => running)
  const closed = app.close()
  await until(t, 'the server is closing', () => closing)
  socket.write('GET /api/auth/me HTTP/1.1\r\nHost: x\r\nAccept: application/json\r\n\r\n')
  release()
  await closed
  await ended

  const responses = received.split(/(?=HTTP\/1\.1 )/)
  t.equal(responses.length, 2, 'both requests were answered')
  t.match(responses[0], /^HTTP\/1\.1 200/, 'the request in flight finished')
  t.match(responses[1], /^HTTP\/1\.1 503/, 'the one that came during shutdown answers 503')
  const body = JSON.parse(responses[1]!.slice(responses[1]!.indexOf('\r\n\r\n') + 4))
  t.equal(body.code, 'ERR_SHUTTING_DOWN', 'with a stable code')
  t.match(responses[1], /connection: close/i, 'and closes the connection')
})
