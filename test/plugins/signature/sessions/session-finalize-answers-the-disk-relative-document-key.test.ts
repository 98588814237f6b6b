// Issue 15, item 14: a session finalize answers signed_document_path as the key on the signature
// disk (as the record mode does), never the server's absolute path.
import t from 'tap'
import { forEachEngine } from '../../../core/db/engines.ts'
import { PEOPLE, sessionFixture } from './session-fixture.ts'

t.setTimeout(120_000)

forEachEngine(t, 'signed_document_path is a disk key', async (database, _engine, t) => {
  const { manager, disk, sign, requestFor } = await sessionFixture(t, database)
  const session = await manager.create(PEOPLE.ada, { template: 'agreement', signable: 'ag-1', mode: 'parallel' })
  const signed = await sign(PEOPLE.bruno, requestFor(session, 'party-b'))
  t.match(signed.signed_document_path, /^sessions\/[0-9a-f-]{36}\/001-party-b-[0-9a-f]{8}\.pdf$/)
  t.notOk(signed.signed_document_path.startsWith(disk.root), 'nothing of the server\'s folders')
  t.same(await disk.get(signed.signed_document_path), (await manager.document(PEOPLE.ada, session.id)).bytes, 'the key names the current revision')
})
