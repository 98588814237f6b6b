// Answers whose handlers finish in one turn of the event loop are written together at its end
// (core/http/end-of-turn-writes.ts): a write that wakes the client costs the server's CPU, and
// written back to back only the first one has to. Real sockets: requests sent in one go reach
// the server in one poll of the event loop, as under load.
import net from 'node:net'
import Fastify, { type FastifyInstance } from 'fastify'
import t from 'tap'
import { writeResponsesAtEndOfTurn } from '../../../core/http/end-of-turn-writes.ts'
import { buildTestApp } from '../../helpers/app.ts'
import { listenLocally, parseRawResponse, type RawResponse } from './raw-http.ts'

/** What the server did, in order: a request's handler began ('in'), its answer was handed to the socket ('out'). */
function recordOrder(app: FastifyInstance): string[] {
  const events: string[] = []
  app.server.prependListener('request', (request, response) => {
    events.push(`in ${request.url}`)
    response.once('finish', () => events.push(`out ${request.url}`))
  })
  return events
}

/**
 * Opens one connection per path and, once the server has taken them all, sends every request in
 * the same tick; resolves with the answers.
 */
async function sendTogether(app: FastifyInstance, port: number, paths: string[]): Promise<RawResponse[]> {
  let accepted = 0
  const allAccepted = new Promise<void>((resolve) => {
    const onConnection = () => { if (++accepted === paths.length) { app.server.off('connection', onConnection); resolve() } }
    app.server.on('connection', onConnection)
  })
  const sockets = await Promise.all(paths.map(() => new Promise<net.Socket>((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1', () => resolve(socket))
    socket.once('error', reject)
  })))
  await allAccepted
  // One more turn: the server starts reading a connection after its 'connection' event.
  await new Promise((resolve) => setImmediate(resolve))
  const answers = sockets.map((socket) => new Promise<RawResponse>((resolve, reject) => {
    let raw = ''
    socket.setEncoding('latin1')
    socket.on('data', (chunk: string) => { raw += chunk })
    socket.on('error', reject)
    socket.on('close', () => resolve(parseRawResponse(raw)))
  }))
  sockets.forEach((socket, i) => socket.write(`GET ${paths[i]} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n`))
  return Promise.all(answers)
}

// Not findLastIndex: the project's TypeScript target is ES2022.
const lastIn = (events: string[]) => events.length - 1 - [...events].reverse().findIndex((e) => e.startsWith('in '))
const firstOut = (events: string[]) => events.findIndex((e) => e.startsWith('out '))

t.test('requests that arrive together are all handled before the first answer is written, and all answered', async (t) => {
  const app = Fastify()
  writeResponsesAtEndOfTurn(app)
  app.get('/n/:n', async (request) => ({ n: Number((request.params as { n: string }).n) }))
  t.teardown(() => app.close())
  const port = await listenLocally(app)
  const events = recordOrder(app)

  const paths = ['/n/1', '/n/2', '/n/3', '/n/4', '/n/5']
  const answers = await sendTogether(app, port, paths)
  t.same(answers.map((a) => a.status), [200, 200, 200, 200, 200])
  t.same(answers.map((a) => JSON.parse(a.body).n), [1, 2, 3, 4, 5], 'each connection got its own answer')
  t.equal(events.filter((e) => e.startsWith('out ')).length, 5)
  t.ok(lastIn(events) < firstOut(events), `handled ${paths.length}, then written: ${events.join(', ')}`)
})

t.test('an answer that fails as it is written becomes an error answer, and the others of its turn still go out', async (t) => {
  const app = Fastify({ logger: false })
  writeResponsesAtEndOfTurn(app)
  // Node refuses a header value with a line break when the head is written, after every hook ran.
  app.get('/bad', async (_request, reply) => reply.header('x-broken', 'a\r\nb').send({ ok: false }))
  app.get('/good', async () => ({ ok: true }))
  t.teardown(() => app.close())
  const port = await listenLocally(app)

  const [bad, good, again] = await sendTogether(app, port, ['/bad', '/good', '/good'])
  t.equal(bad!.status, 500, 'the broken answer is replaced by an error')
  t.notOk(bad!.headers['x-broken'], 'the refused header is not sent')
  t.equal(good!.status, 200)
  t.equal(again!.status, 200)
  t.same(JSON.parse(good!.body), { ok: true })
})

t.test('the app answers this way: pages that arrive together are written together', async (t) => {
  const app = await buildTestApp(t)
  const port = await listenLocally(app)
  await sendTogether(app, port, ['/login']) // compiles the view, outside the batch below
  const events = recordOrder(app)

  const answers = await sendTogether(app, port, ['/login', '/login', '/login', '/login'])
  t.same(answers.map((a) => a.status), [200, 200, 200, 200])
  t.ok(answers.every((a) => a.body.includes('</html>')), 'whole pages')
  t.ok(lastIn(events) < firstOut(events), events.join(', '))
})
