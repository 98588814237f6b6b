// Issue 15, item 1: the signer's page, meta, page images and finalize first ask whether the user
// may see the record (the visibility of GET /api/signables/:key) and answer an unseen record
// exactly like a missing one; an unbound slot (the contract's witness) is for someone who may see
// the record and signs no other slot of it.
import t from 'tap'
import { buildTestApp, DEMO } from '../../../helpers/app.ts'
import { getPage } from '../../../helpers/pages.ts'
import { finalize, meta, signerWithSignature } from '../signing/helpers.ts'

t.setTimeout(180_000)

const WITNESS_BOX = { slot: 'witness', page: 2, x: 64, y: 36, width: 220, height: 54 }
const EMPLOYEE_BOX = { slot: 'employee', page: 2, x: 311, y: 112, width: 220, height: 54 }

t.test('staff cannot open, read, or sign the admin\'s contract through an unbound slot', async (t) => {
  const app = await buildTestApp(t)
  const staff = await signerWithSignature(app, DEMO.staff.email, 'Sam')
  const missing = (await getPage(app, `/app/signature-templates/contract/sign/${staff.signature}?signable=contract-nobody`, staff.cookie))

  const page = await getPage(app, `/app/signature-templates/contract/sign/${staff.signature}?signable=contract-admin`, staff.cookie)
  t.equal(page.statusCode, 404, 'the signer page')
  t.equal(missing.statusCode, 404)
  t.notMatch(page.body, /Ada Admin/, 'nothing of the record on the page')

  const metaAnswer = await meta(app, staff, 'contract', { signature: staff.signature, signable: 'contract-admin' })
  t.equal(metaAnswer.statusCode, 404, `meta: ${metaAnswer.body}`)
  const metaMissing = await meta(app, staff, 'contract', { signature: staff.signature, signable: 'contract-nobody' })
  t.same({ ...metaAnswer.json(), message: undefined }, { ...metaMissing.json(), message: undefined }, 'answered like a record that does not exist')

  const image = await app.inject({ url: '/app/signature-templates/contract/signer/pages/1?signable=contract-admin', headers: { cookie: staff.cookie } })
  t.equal(image.statusCode, 404, 'page images')
  t.not(image.headers['content-type'], 'image/png')

  const signed = await finalize(app, staff, 'contract', { signature: staff.signature, signable: 'contract-admin', placements: [WITNESS_BOX] })
  t.equal(signed.statusCode, 404, `finalize: ${signed.body}`)
  t.equal(signed.json().code, 'ERR_NOT_FOUND')
  t.same(await app.signature.signatures.db.selectFrom('digital_signatures').select('uuid').where('status', '=', 'signed').execute(), [], 'nothing was signed')
})

t.test('a signatory of one slot is not offered, and may not sign, the unbound witness slot', async (t) => {
  const app = await buildTestApp(t)
  const staff = await signerWithSignature(app, DEMO.staff.email, 'Sam')
  const answer = await meta(app, staff, 'contract', { signature: staff.signature, signable: 'contract-staff' })
  t.equal(answer.statusCode, 200, answer.body)
  t.same(answer.json().data.slots.map((s: { key: string }) => s.key), ['employee'], 'only their own slot')

  const both = await finalize(app, staff, 'contract', { signature: staff.signature, signable: 'contract-staff', placements: [EMPLOYEE_BOX, WITNESS_BOX] })
  t.equal(both.statusCode, 403, both.body)
  t.equal(both.json().code, 'ERR_SIGNS_ANOTHER_SLOT')
  const witness = await finalize(app, staff, 'contract', { signature: staff.signature, signable: 'contract-staff', placements: [WITNESS_BOX] })
  t.equal(witness.statusCode, 403, witness.body)
  t.equal(witness.json().code, 'ERR_SIGNS_ANOTHER_SLOT')
  t.same(await app.signature.signatures.db.selectFrom('digital_signatures').select('uuid').where('status', '=', 'signed').execute(), [], 'nothing was signed')
})
