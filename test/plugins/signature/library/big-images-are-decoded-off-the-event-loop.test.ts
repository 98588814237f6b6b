import t from 'tap'
import { buildTestApp, DEMO, login } from '../../../helpers/app.ts'
import { makeBlankPng16 } from '../../../fixtures/pdf/stamp-image.ts'

const dataUrl = (png: Buffer) => `data:image/png;base64,${png.toString('base64')}`

t.test('a large signature image is decoded off the event loop; one over the pixel limit is refused unread', async (t) => {
  const app = await buildTestApp(t)
  const cookie = await login(app, DEMO.staff.email)
  const create = (image: string) => app.inject({ method: 'POST', url: '/api/signatures', headers: { cookie }, payload: { label: 'Large', image, certificate: { mode: 'issue' } } })
  const count = async () => (await app.inject({ url: '/api/signatures', headers: { cookie } })).json().data.length
  // Warm the worker (thread start-up, first certificate), so what follows measures the decode.
  t.equal((await create(dataUrl(makeBlankPng16(8, 8)))).statusCode, 201)

  // 1600 x 1600 at 16 bits: 2.6 M pixels, under the limit; 1-2 s of decoding on this machine.
  const big = dataUrl(makeBlankPng16(1600, 1600))
  let last = performance.now()
  let worstLag = 0
  const ticker = setInterval(() => {
    const now = performance.now()
    worstLag = Math.max(worstLag, now - last - 10)
    last = now
  }, 10)
  const started = performance.now()
  let done = false
  const pending = create(big).finally(() => { done = true })
  // Requests made one after another while the image is being decoded are each answered promptly.
  const latencies: number[] = []
  while (!done) {
    const at = performance.now()
    const other = await app.inject({ url: '/api/signatures', headers: { cookie } })
    if (other.statusCode !== 200) throw new Error(`concurrent request: ${other.statusCode}`)
    latencies.push(performance.now() - at)
    // Paced like a client's requests; back to back, inject's promise chain would leave the event loop no turn.
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
  const created = await pending
  const totalMs = performance.now() - started
  clearInterval(ticker)
  t.equal(created.statusCode, 201, created.body.slice(0, 200))
  t.ok(latencies.length > 1, `${latencies.length} requests answered meanwhile`)
  t.ok(Math.max(...latencies) < 250, `slowest concurrent request ${Math.max(...latencies).toFixed(0)} ms (creating took ${totalMs.toFixed(0)} ms)`)
  t.ok(worstLag < 250, `worst event-loop lag ${worstLag.toFixed(0)} ms while decoding (creating took ${totalMs.toFixed(0)} ms)`)

  // 4000 x 4000 at 16 bits is 166 KB of base64: refused from its header, before any decoder, and nothing is stored.
  const before = await count()
  const huge = dataUrl(makeBlankPng16(4000, 4000))
  t.ok(huge.length < 200 * 1024, `${Math.round(huge.length / 1024)} KB on the wire`)
  const refusedAt = performance.now()
  const refused = await create(huge)
  t.equal(refused.statusCode, 422, refused.body.slice(0, 200))
  t.equal(refused.json().code, 'ERR_IMAGE_TOO_LARGE')
  t.match(refused.json().message, /4000 x 4000/)
  t.ok(performance.now() - refusedAt < 1000, `refused in ${(performance.now() - refusedAt).toFixed(0)} ms`)
  t.equal(await count(), before, 'nothing was written')
})
