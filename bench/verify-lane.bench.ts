// Issue 35 item 11's attack against the app over HTTP (app.inject, the whole host app): a staff
// member's one-page signature, idle and while anonymous uploads fill the verify lane (one running,
// SIGNATURE_VERIFY_QUEUE waiting, each as costly as the default limits allow), alternated round by
// round so that the machine's load weighs on both; and how fast the issue's own document (7 MB,
// 100,000 objects, 20,000 incremental sections) is refused.
// Bar: a signature during the attack takes at most 2x its idle time (medians).
// Run with npm start's V8 options (package.json), never part of npm test:
//   node --max-semi-space-size=4 --single-threaded-gc --import tsx bench/verify-lane.bench.ts
// config/signature.ts reads the environment when it is first imported: the per-address limit
// would otherwise refuse the attack itself (every inject comes from 127.0.0.1).
process.env.SIGNATURE_VERIFY_RATE_PER_MINUTE ??= '100000'
const { DEMO, buildTestApp } = await import('../test/helpers/app.ts')
const { signerWithSignature } = await import('../test/plugins/signature/signing/helpers.ts')
import { makeManyRevisionsPdf } from '../test/fixtures/pdf/many-revisions-pdf.ts'
import { makePdf } from '../test/fixtures/pdf/make-pdf.ts'
import { median, mib, ms, x } from './lib/rows.ts'

const rounds = Number(process.env.RUNS ?? 7)
const closers: Array<() => unknown> = []
const app = await buildTestApp({ teardown: (fn) => closers.push(fn) })
try {
  const staff = await signerWithSignature(app, DEMO.staff.email)
  const pdf = Buffer.from(await makePdf({ pages: 1 })).toString('base64')
  const sign = async () => {
    const started = performance.now()
    const res = await app.inject({ method: 'POST', url: '/api/sign', headers: { cookie: staff.cookie }, payload: { signature: staff.signature, pdf, placements: [{ page: 1, x: 300, y: 200, width: 200, height: 80 }] } })
    if (res.statusCode !== 200) throw new Error(`signing failed: ${res.statusCode} ${res.body.slice(0, 200)}`)
    return performance.now() - started
  }
  const hostile = makeManyRevisionsPdf({ objects: 3_400, revisions: 499 })
  const verify = () => app.inject({ method: 'POST', url: '/api/verify', headers: { 'content-type': 'application/pdf' }, payload: hostile })
  const lane = app.signature.verifying
  const waitFor = async (done: () => boolean) => { while (!done()) await new Promise((resolve) => setTimeout(resolve, 5)) }

  await sign()
  await (await verify()).json() // starts a verify worker too
  const idle: number[] = []
  const attacked: number[] = []
  const verifyMs: number[] = []
  let busyAtSignature = 0
  let peakRss = process.memoryUsage().rss
  const sampler = setInterval(() => { peakRss = Math.max(peakRss, process.memoryUsage().rss) }, 20)
  for (let round = 0; round < rounds; round++) {
    idle.push(await sign())
    const started = performance.now()
    const uploads: Array<Promise<unknown>> = []
    while (uploads.length < 1 + app.signature.config.verify.queue) uploads.push(verify())
    await waitFor(() => lane.stats.busy === 1 && lane.stats.queued === app.signature.config.verify.queue)
    const during = await sign()
    const stillBusy = lane.stats.busy === 1
    const answers = (await Promise.all(uploads)) as Array<{ statusCode: number }>
    verifyMs.push((performance.now() - started) / uploads.length)
    if (answers.some((a) => a.statusCode !== 200)) throw new Error(`round ${round}: answers ${answers.map((a) => a.statusCode)}`)
    if (stillBusy) busyAtSignature++
    attacked.push(during)
  }
  clearInterval(sampler)

  const issueDocument = makeManyRevisionsPdf({ objects: 100_000, revisions: 20_000 })
  const refusals: number[] = []
  let code = ''
  for (let i = 0; i < 5; i++) {
    const started = performance.now()
    const res = await app.inject({ method: 'POST', url: '/api/verify', headers: { 'content-type': 'application/pdf' }, payload: issueDocument })
    refusals.push(performance.now() - started)
    code = `${res.statusCode} ${res.json().code}`
  }
  const ratio = median(attacked) / median(idle)
  console.log(`signature idle (median of ${rounds}): ${ms(median(idle))} [${idle.map((v) => v.toFixed(0)).join(', ')}]`)
  console.log(`signature while ${1 + app.signature.config.verify.queue} uploads fill the verify lane: ${ms(median(attacked))} [${attacked.map((v) => v.toFixed(0)).join(', ')}]`)
  console.log(`the lane was still verifying when the signature was made in ${busyAtSignature} of ${rounds} rounds`)
  console.log(`ratio ${x(ratio)} (bar: 2x) ${ratio <= 2 ? 'met' : 'NOT met'}; one hostile verification ${ms(median(verifyMs))} of lane time; peak RSS ${mib(peakRss)}`)
  console.log(`the issue's document (${mib(issueDocument.length)}, 100,000 objects, 20,001 revisions): ${code} in ${ms(median(refusals))} (median of 5)`)
} finally {
  for (const close of closers.reverse()) await close()
}
