// The product requirement through the session manager: a certified document, three signers one
// after the other, every signature valid — checked by pdfsig, mupdf and qpdf — on SQLite and PostgreSQL.
import t from 'tap'
import { forEachEngine } from '../../../core/db/engines.ts'
import { inkShare, mupdfChangeHistory, pdfsig, qpdfCheck } from '../../../fixtures/pdf/checkers.ts'
import { PEOPLE, SLOTS, sessionFixture } from './session-fixture.ts'

// Real certificates, real PDFs and both engines: slower than tap's default 30 s per file.
t.setTimeout(300_000)

forEachEngine(t, 'three signers in sequence', async (database, _engine, t) => {
  const { manager, disk, db, sign, requestFor } = await sessionFixture(t, database)
  const created = await manager.create(PEOPLE.ada, { template: 'agreement', signable: 'ag-1', mode: 'sequential' })
  t.equal(created.status, 'active')
  t.equal(created.requests.length, 3)
  t.same(created.requests.map((r) => [r.slot, r.signer.id, r.order]), [['party-a', PEOPLE.alice.id, 1], ['party-b', PEOPLE.bruno.id, 2], ['witness', PEOPLE.chen.id, 3]])
  t.ok(created.requests.every((r) => r.signerUrl?.includes(`?request=${r.id}`)), 'each request has its signer-page URL')
  t.match(created.frozenSha256, /^[0-9a-f]{64}$/)

  const revisions: Buffer[] = [await disk.get(`sessions/${created.id}/000-frozen.pdf`)]
  const order: Array<[keyof typeof PEOPLE, string]> = [['alice', 'party-a'], ['bruno', 'party-b'], ['chen', 'witness']]
  const timings: number[] = []
  for (const [step, [who, slot]] of order.entries()) {
    const view = await manager.view(PEOPLE[who], 'agreement', requestFor(created, slot))
    t.equal(view.slotKey, slot, 'the signer page is fixed to the request\'s slot')
    const started = performance.now()
    const result = await sign(PEOPLE[who], requestFor(created, slot))
    timings.push(performance.now() - started)
    t.equal(result.status, 'signed')
    t.equal(result.session.status, step === 2 ? 'completed' : 'active')
    revisions.push(await disk.get(result.signed_document_path))
  }
  t.comment(`finalize took ${timings.map((ms) => ms.toFixed(0)).join(', ')} ms`)
  const final = revisions.at(-1)!

  const session = await manager.get(PEOPLE.ada, created.id)
  t.equal(session.status, 'completed')
  t.equal(session.revision, 3)
  t.equal(session.frozenSha256, created.frozenSha256, 'the frozen document is never rewritten')
  t.same(session.events!.map((e) => e.event), ['created', 'opened', 'signed', 'opened', 'signed', 'opened', 'signed', 'completed'])
  const signedEvents = session.events!.filter((e) => e.event === 'signed')
  t.equal(signedEvents[0]!.sha256Before, created.frozenSha256, 'the trail chains the SHA-256 of every revision')
  t.equal(signedEvents[1]!.sha256Before, signedEvents[0]!.sha256After)
  t.equal(signedEvents[2]!.sha256After, session.currentSha256)
  const childRows = await db.selectFrom('digital_signatures').selectAll().where('status', '=', 'signed').execute()
  t.equal(childRows.length, 3, 'one signature row per signer')
  t.same((await db.selectFrom('signature_positions').select('slot_key').orderBy('slot_key').execute()).map((p: { slot_key: string }) => p.slot_key), ['party-a', 'party-b', 'witness'])

  t.test('every earlier revision is an unchanged prefix of the final file', async (t: any) => {
    for (const [i, revision] of revisions.entries()) t.ok(final.subarray(0, revision.length).equals(revision), `revision ${i} (${revision.length} bytes)`)
  })

  t.test('pdfsig: 4 signatures, all valid, only the last total, each signer\'s own certificate', async (t: any) => {
    const { signatures, output } = await pdfsig(final)
    t.equal(signatures.length, 4, output)
    for (const s of signatures) t.equal(s.validation, 'Signature is Valid.', s.fieldName)
    const byField = new Map(signatures.map((s) => [s.fieldName, s]))
    t.equal(byField.get('Certification')?.commonName, 'Signing Application')
    t.equal(byField.get('party-a')?.commonName, PEOPLE.alice.name)
    t.equal(byField.get('party-b')?.commonName, PEOPLE.bruno.name)
    t.equal(byField.get('witness')?.commonName, PEOPLE.chen.name)
    t.same(signatures.filter((s) => s.totalDocumentSigned).map((s) => s.fieldName), ['witness'], 'only the last covers the whole file')
  })

  t.test('mupdf: no change forbidden by the DocMDP certification', async (t: any) => {
    const { verdict, versions } = await mupdfChangeHistory(final)
    t.equal(versions, 4)
    t.equal(verdict, 0)
  })

  t.test('qpdf --check is clean', async (t: any) => {
    const { clean, output } = await qpdfCheck(final)
    t.ok(clean, output)
  })

  t.test('each stamp is visible where its slot was placed', async (t: any) => {
    const boxes = SLOTS.map((s) => ({ x: s.defaultX, y: s.defaultY, width: s.defaultWidth, height: s.defaultHeight }))
    const after = await inkShare(final, 1, [...boxes, { x: 40, y: 250, width: 700, height: 150 }])
    const before = await inkShare(revisions[0]!, 1, boxes)
    for (const [i, slot] of SLOTS.entries()) t.ok(after[i]! > 0.3 && after[i]! - before[i]! > 0.25, `${slot.key}: ink ${after[i]} (before ${before[i]})`)
    t.equal(after[3], 0, 'the rest of the page is untouched')
  })
})

forEachEngine(t, 'a PDF that arrives with a cross-reference stream', async (database, _engine, t) => {
  const { manager, disk, sign, requestFor } = await sessionFixture(t, database)
  const created = await manager.create(PEOPLE.ada, { template: 'agreement', signable: 'ag-xref', mode: 'parallel' })
  // Parallel: any order. Witness first, then party A.
  await sign(PEOPLE.chen, requestFor(created, 'witness'))
  const result = await sign(PEOPLE.alice, requestFor(created, 'party-a'))
  const bytes = await disk.get(result.signed_document_path)
  const { signatures } = await pdfsig(bytes)
  const signed = signatures.filter((s) => s.signed)
  t.equal(signed.length, 3)
  t.ok(signed.every((s) => s.validation === 'Signature is Valid.'))
  t.equal((await mupdfChangeHistory(bytes)).verdict, 0)
  t.ok((await qpdfCheck(bytes)).clean)
})
