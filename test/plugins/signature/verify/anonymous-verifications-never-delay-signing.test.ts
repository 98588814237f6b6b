// Issue 35 item 11: four anonymous verifications of a costly PDF held the only PDF worker, and a
// staff member's one-page signature waited 65.7 s instead of 0.2 s. Uploads are now verified in a
// lane of their own (SIGNATURE_VERIFY_WORKERS threads, SIGNATURE_VERIFY_QUEUE waiting, 503
// ERR_VERIFY_BUSY past that): while the lane is full, a signature is made at once. Asserted on the
// lane's state, not on wall time (a loaded machine stretches that); the times are printed.
import t from 'tap'
import type { FastifyInstance } from 'fastify'
import { until } from '../../../helpers/eventually.ts'
import { makeManyRevisionsPdf } from '../../../fixtures/pdf/many-revisions-pdf.ts'
import { makePdf } from '../../../fixtures/pdf/make-pdf.ts'

// config/signature.ts reads the environment when it is first imported. Documents as costly as the
// default limits allow; a long task limit, so that a loaded machine cannot turn them into 422s.
process.env.SIGNATURE_VERIFY_QUEUE = '3'
process.env.SIGNATURE_VERIFY_RATE_PER_MINUTE = '1000'
process.env.SIGNATURE_TASK_TIMEOUT_MS = '120000'
const { buildTestApp, DEMO } = await import('../../../helpers/app.ts')
const { signerWithSignature } = await import('../signing/helpers.ts')

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!

t.test('a signature is made while verifications fill their lane; one more upload is refused with 503', async (t) => {
  const app: FastifyInstance = await buildTestApp(t)
  const staff = await signerWithSignature(app, DEMO.staff.email)
  const pdf = Buffer.from(await makePdf({ pages: 1 })).toString('base64')
  const sign = async () => {
    const started = performance.now()
    const res = await app.inject({ method: 'POST', url: '/api/sign', headers: { cookie: staff.cookie }, payload: { signature: staff.signature, pdf, placements: [{ page: 1, x: 300, y: 200, width: 200, height: 80 }] } })
    t.equal(res.statusCode, 200, res.statusCode === 200 ? 'signed' : res.body.slice(0, 200))
    return performance.now() - started
  }
  await sign() // starts the PDF worker
  const idle = [await sign(), await sign(), await sign()]

  // 500 revisions of 3,903 objects: 1.95 million revisions x objects, just within the default limit.
  const hostile = makeManyRevisionsPdf({ objects: 3_400, revisions: 499 })
  const verify = () => app.inject({ method: 'POST', url: '/api/verify', headers: { 'content-type': 'application/pdf' }, payload: hostile })
  // One verify worker and 3 waiting: the fifth upload finds the lane full.
  const accepted = [verify(), verify(), verify(), verify()]
  await until(t, 'the verify lane holds one running and three waiting', () => app.signature.verifying.stats.busy === 1 && app.signature.verifying.stats.queued === 3)
  const overflow = await verify()
  t.equal(overflow.statusCode, 503, overflow.body.slice(0, 200))
  t.equal(overflow.json().code, 'ERR_VERIFY_BUSY')
  t.match(overflow.headers['retry-after'], /^\d+$/)

  const underAttack: number[] = []
  for (let i = 0; i < 3; i++) {
    underAttack.push(await sign())
    t.equal(app.signature.verifying.stats.busy, 1, `signature ${i + 1} was made while a verification was still running`)
  }
  t.ok(app.signature.verifying.stats.queued > 0, 'and before the lane had even emptied its queue')

  const answers = await Promise.all(accepted)
  for (const res of answers) t.equal(res.statusCode, 200, res.statusCode === 200 ? 'verified' : res.body.slice(0, 200))
  t.equal(answers[0]!.json().document.revisions, 500)
  t.comment(`signature ms: idle median ${median(idle).toFixed(0)} (${idle.map((v) => v.toFixed(0)).join(', ')}), during the attack median ${median(underAttack).toFixed(0)} (${underAttack.map((v) => v.toFixed(0)).join(', ')}); ratio ${(median(underAttack) / median(idle)).toFixed(2)}`)
})
