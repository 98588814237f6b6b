// Issue 36, item 5: "exactly once across instances" rests on sealSession's atRevision. A pass
// that found a session unsealed at revision N, and reaches it after someone else sealed it (now
// N + 1), must not seal it again: it answers 'moved' and writes no file, no event, no revision.
// Without the revision it would seal the sealed document a second time.
import { readdir } from 'node:fs/promises'
import t from 'tap'
import { buildTestApp, DEMO } from '../../../helpers/app.ts'
import { SessionRepository } from '../../../../plugins/signature/sessions/session-repository.ts'
import type { SessionContext } from '../../../../plugins/signature/sessions/session-context.ts'
import { sealSession } from '../../../../plugins/signature/sessions/session-seal.ts'
import { finalize, signerWithSignature } from '../signing/helpers.ts'

t.setTimeout(120_000)

t.test('sealing at a revision the session has left is a no-op; sealing at the current one seals', async (t) => {
  const app = await buildTestApp(t)
  const admin = await signerWithSignature(app, DEMO.admin.email, 'Ada')
  const staff = await signerWithSignature(app, DEMO.staff.email, 'Sam')
  const created = (await app.inject({ method: 'POST', url: '/api/signing-sessions', headers: { cookie: admin.cookie }, payload: { template: 'payslip', signable: 'payslip-staff-2026-03', mode: 'sequential' } })).json().data
  for (const [signer, slot] of [[admin, 'payroll'], [staff, 'employee']] as const) {
    const request = created.requests.find((r: { slot: string }) => r.slot === slot).id
    t.equal((await finalize(app, signer, 'payslip', { signature: signer.signature, request, placements: [] })).statusCode, 200, `${slot} signs`)
  }
  const { disk, database, ltv } = app.signature
  const repository = new SessionRepository(database.db)
  // The parts sealSession uses, the app's own.
  const ctx = { deps: { repository, disk, longTermValidation: ltv }, now: () => new Date() } as unknown as SessionContext
  const sealedEvents = async () => (await repository.eventsOf(created.id)).filter((e) => e.event === 'sealed').length
  const sealed = await repository.findSession(created.id)
  t.match(sealed, { status: 'completed', revision: 3 }, 'two signatures and the seal made at completion')
  t.equal(await sealedEvents(), 1, 'one sealed event')
  // The session's revisions; the certificate of completion is written beside them in the background.
  const revisions = async () => (await readdir(disk.path(`sessions/${created.id}`))).filter((name) => /^\d{3}-.*\.pdf$/.test(name))
  const files = await revisions()

  t.same(await sealSession(ctx, created.id, null, undefined, 2), { outcome: 'moved' }, 'a pass that saw revision 2 does nothing')
  t.match(await repository.findSession(created.id), { revision: 3, current_document_key: sealed!.current_document_key }, 'the session did not move')
  t.equal(await sealedEvents(), 1, 'no second sealed event')
  t.same(await revisions(), files, 'no revision written')

  const again = await sealSession(ctx, created.id, null, undefined, 3)
  t.equal(again.outcome, 'sealed', 'at the current revision it seals (an archive renewal)')
  t.equal(await sealedEvents(), 2, 'its own sealed event')
})
