import t from 'tap'
import { buildTestApp, DEMO } from '../../../helpers/app.ts'
import type { PublicUser } from '../../../../core/auth/user-repository.ts'
import type { SignableSource } from '../../../../plugins/signature/contracts/signable-source.ts'
import { SignerService } from '../../../../plugins/signature/signer/signer-service.ts'
import { EMPLOYEE_BOX, signerWithSignature } from './helpers.ts'

t.test('production finalize on a record that does not implement Signable: 422 ERR_RECORD_NOT_SIGNABLE, nothing signed', async (t) => {
  const app = await buildTestApp(t)
  const staff = await signerWithSignature(app, DEMO.staff.email)
  // A source whose record has the fields but not the Signable methods (a plain row from somewhere).
  const source = { forTemplate: () => [], find: () => ({ id: 'dtr-raw', employeeId: DEMO.staff.id }) } as unknown as SignableSource
  const service = new SignerService(app.signature, source, app.policy)
  const user: PublicUser = { id: DEMO.staff.id, name: 'Sam Staff', email: DEMO.staff.email, role: 'staff' }
  const body = { signature: staff.signature, signable: 'dtr-raw', placements: [EMPLOYEE_BOX] }
  await t.rejects(service.finalize(user, 'daily-time-record', body), { code: 'ERR_RECORD_NOT_SIGNABLE', statusCode: 422 })
  await t.rejects(service.meta(user, 'daily-time-record', { signature: staff.signature, signable: 'dtr-raw' }), { code: 'ERR_RECORD_NOT_SIGNABLE' })
  t.same(await app.signature.signatures.db.selectFrom('digital_signatures').select('uuid').where('status', '=', 'signed').execute(), [])
})
