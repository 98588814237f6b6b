// The signature plugin contributes two relation lists to the admin panel's People page: the
// person's signed documents and the signing sessions they sign in, newest first, values escaped
// and dates in words; someone with neither leaves both lists empty and says so.
import t from 'tap'
import { buildTestApp, DEMO, login } from '../../../helpers/app.ts'
import { getPage } from '../../../helpers/pages.ts'

t.test("a person's signatures and signing sessions on their People page", async (t) => {
  const app = await buildTestApp(t)
  const db = app.signature.database.db
  const at = '2026-11-20T09:30:00.000Z'
  await db.insertInto('digital_signatures').values({
    uuid: 'sig-1', user_id: DEMO.staff.id, source_uuid: null, signable_type: 'payslip', signable_id: '<p-7>', status: 'signed', label: 'Staff <initials>',
    is_primary: 0, image_mime: null, image_base64: null, certificate_source: null, certificate_p12: null, certificate_password: null,
    certificate_subject: null, certificate_not_after: null, document_key: null, document_sha256: null, signed_at: at, created_at: at, updated_at: at,
  }).execute()
  await db.insertInto('signing_sessions').values({
    id: 'ses-1', template_key: 'contract', signable_id: 'c-1', signable_title: 'Contract <Q4>', mode: 'parallel', status: 'active', created_by: DEMO.admin.id,
    frozen_document_key: 'k', frozen_sha256: 'h', current_document_key: 'k', current_sha256: 'h', revision: 0, created_at: at, updated_at: at, closed_at: null,
  }).execute()
  await db.insertInto('signing_session_requests').values({
    id: 'req-1', session_id: 'ses-1', slot_key: 'employee', field_name: 'Sig1', signer_user_id: DEMO.staff.id, sign_order: 1, status: 'pending',
    page: 1, x: 0, y: 0, width: 100, height: 40, claim_token: null, claimed_at: null, signature_uuid: null, document_key: null, document_sha256: null,
    decline_reason: null, signed_at: null, declined_at: null, created_at: at, updated_at: at,
  }).execute()

  const admin = await login(app, DEMO.admin.email)
  const staff = await getPage(app, `/admin/users/${DEMO.staff.id}`, admin)
  t.equal(staff.statusCode, 200)
  t.match(staff.body, /<h2 id="relation-signatures" class="card-heading">Signatures<\/h2>/)
  t.match(staff.body, '<td data-label="Document">payslip &lt;p-7&gt;</td><td data-label="Signature">Staff &lt;initials&gt;</td><td data-label="Signed">20 Nov 2026, 09:30 UTC</td>')
  t.match(staff.body, /<h2 id="relation-signing-sessions" class="card-heading">Signing sessions<\/h2>/)
  t.match(staff.body, '<td data-label="Document">Contract &lt;Q4&gt;</td><td data-label="Session">active</td><td data-label="Their part">pending</td>')
  t.notMatch(staff.body, '<initials>', 'nothing unescaped')

  const manager = await getPage(app, `/admin/users/${DEMO.manager.id}`, admin)
  t.match(manager.body, 'No signed documents yet')
  t.match(manager.body, 'Not a signer in any session')
})
