import net from 'node:net'
import { Writable } from 'node:stream'
import t from 'tap'
import { loadAppEnv } from '../../../config/app.ts'
import { buildTestApp } from '../../helpers/app.ts'
import { listenLocally, parseRawResponse } from './raw-http.ts'

interface LogLine { level: number; msg: string; reqId?: string; [key: string]: unknown }

/** A logger stream that keeps every line and lets a test wait for one. */
function capturedLog() {
  const lines: LogLine[] = []
  const waiters: Array<{ match: (l: LogLine) => boolean; resolve: (l: LogLine) => void }> = []
  const stream = new Writable({
    write(chunk, _encoding, callback) {
      const line = JSON.parse(chunk.toString()) as LogLine
      lines.push(line)
      for (const w of [...waiters]) if (w.match(line)) { waiters.splice(waiters.indexOf(w), 1); w.resolve(line) }
      callback()
    },
  })
  const waitFor = (match: (l: LogLine) => boolean) => new Promise<LogLine>((resolve) => {
    const seen = lines.find(match)
    if (seen) resolve(seen)
    else waiters.push({ match, resolve })
  })
  return { lines, stream, waitFor }
}

const HEAD = 'POST /api/auth/login HTTP/1.1\r\nHost: app.test\r\nContent-Type: application/json\r\nContent-Length: 2000\r\n\r\n'
const GIVE_UP_MS = 5000

t.test('a body that dribbles in is cut off after REQUEST_TIMEOUT_MS with a 408 in our shape', async (t) => {
  const log = capturedLog()
  const app = await buildTestApp(t, { env: { REQUEST_TIMEOUT_MS: 400 }, logger: { level: 'info', stream: log.stream } })
  const port = await listenLocally(app)
  const started = Date.now()
  const raw = await new Promise<string>((resolve) => {
    const socket = net.connect(port, '127.0.0.1')
    let received = ''
    // The client: headers at once, then one byte of body every 50 ms, for far longer than the limit.
    const dribble = setInterval(() => socket.write('{'), 50)
    const giveUp = setTimeout(() => socket.destroy(), GIVE_UP_MS)
    socket.write(HEAD)
    socket.setEncoding('latin1')
    socket.on('data', (chunk: string) => { received += chunk })
    socket.on('error', () => {})
    socket.on('close', () => {
      clearInterval(dribble)
      clearTimeout(giveUp)
      resolve(received)
    })
  })
  const elapsed = Date.now() - started
  t.ok(raw.length > 0, `the server answered instead of waiting (${elapsed} ms)`)
  t.ok(elapsed >= 400 && elapsed < GIVE_UP_MS, `cut off after the limit: ${elapsed} ms`)
  if (raw.length === 0) return
  const response = parseRawResponse(raw)
  t.equal(response.status, 408)
  t.match(JSON.parse(response.body), { statusCode: 408, code: 'ERR_REQUEST_TIMEOUT', error: 'Request Timeout' })
  t.equal(response.headers['x-content-type-options'], 'nosniff')
  await log.waitFor((l) => /timed out|aborted/.test(l.msg))
  t.same(log.lines.filter((l) => l.level >= 50), [], 'nothing logged as an error')
})

t.test('a client that hangs up mid-body is logged at info, not error', async (t) => {
  const log = capturedLog()
  const app = await buildTestApp(t, { logger: { level: 'info', stream: log.stream } })
  const port = await listenLocally(app)
  // The server has the request (its headers parsed) before the client hangs up.
  const received = new Promise((resolve) => app.server.once('request', resolve))
  const socket = net.connect(port, '127.0.0.1')
  socket.on('error', () => {})
  socket.write(`${HEAD}{"email":`)
  await received
  socket.destroy()
  const line = await log.waitFor((l) => /aborted|request failed/.test(l.msg))
  t.equal(line.level, 30, `logged at info: ${line.msg}`)
  t.same(log.lines.filter((l) => l.level >= 50), [], 'nothing logged as an error')
})

t.test('REQUEST_TIMEOUT_MS is validated at boot', async (t) => {
  t.equal(loadAppEnv({}).REQUEST_TIMEOUT_MS, 30_000, 'thirty seconds unless configured')
  t.equal(loadAppEnv({ REQUEST_TIMEOUT_MS: '1500' }).REQUEST_TIMEOUT_MS, 1500)
  for (const bad of ['0', '-1', 'soon', '1.5']) t.throws(() => loadAppEnv({ REQUEST_TIMEOUT_MS: bad }), /REQUEST_TIMEOUT_MS/, bad)
})
