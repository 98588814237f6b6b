// Bench row P2c loads the People page as a crowd: connection i is person i % people on page
// floor(i / people). The load generator must really send each connection's own cookie and paths,
// in turn, on that connection alone; if connections shared one request list (autocannon's default),
// the row would measure fifty copies of one request and flatter every shared statement.
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import t from 'tap'
import { runLoad } from '../../bench/lib/load.ts'

t.test('each connection sends its own cookie and its own paths in turn', async (t) => {
  // Per TCP connection: the (cookie, path) pairs it sent, in order.
  const sent = new Map<object, Array<[string, string]>>()
  const server = createServer((request, response) => {
    const key = request.socket
    if (!sent.has(key)) sent.set(key, [])
    sent.get(key)!.push([String(request.headers.cookie), String(request.url)])
    response.end('ok')
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  t.teardown(() => new Promise<void>((resolve) => server.close(() => resolve())))
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`

  const connectionsAs = [
    { headers: { cookie: 's=ann' }, paths: ['/people?page=1', '/api/people?page=1'] },
    { headers: { cookie: 's=bob' }, paths: ['/people?page=2', '/api/people?page=2'] },
    { headers: { cookie: 's=cy' }, paths: ['/people?sort=-email'] },
  ]
  const result = await runLoad({ url: `${base}/people?page=1`, connectionsAs, connections: 6, duration: 1, headers: { 'x-common': '1' } })
  t.ok(result.total > 30, `requests were sent (${result.total})`)

  const shapes = [...sent.values()].map((pairs) => {
    const cookies = new Set(pairs.map(([cookie]) => cookie))
    t.equal(cookies.size, 1, 'one person per connection')
    const as = connectionsAs.find((c) => c.headers.cookie === [...cookies][0])!
    t.ok(as, 'a cookie of the crowd')
    // Its paths in turn: request k is paths[k % length].
    t.same(pairs.map(([, path]) => path), pairs.map((_, k) => as.paths[k % as.paths.length]), 'its own paths, in turn')
    return as.headers.cookie
  })
  t.equal(shapes.length, 6, 'six connections')
  t.same(shapes.sort(), ['s=ann', 's=ann', 's=bob', 's=bob', 's=cy', 's=cy'], 'connection i is connectionsAs[i % 3]')
})
