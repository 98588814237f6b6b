// The registry's saved templates are brought up to date on every list (registry.fresh()), so that
// cost must be nothing while nothing was written: the rows are read again only when the database's
// write stamp moved. SQLite and PostgreSQL (DATABASE_URL).
import t from 'tap'
import { writeStampOf } from '../../../../core/db/database.ts'
import { DocumentRepository } from '../../../../plugins/signature/documents/document-repository.ts'
import { DocumentTemplates } from '../../../../plugins/signature/documents/document-templates.ts'
import { buildTestApp, DEMO, login } from '../../../helpers/app.ts'
import { countStatements } from '../../../helpers/count-statements.ts'
import { uploadDocument } from './document-helpers.ts'

t.test('refresh reads the rows once per write, not once per call', async (t) => {
  const app = await buildTestApp(t)
  const manager = await login(app, DEMO.manager.email)
  const db = app.signature.database.db
  const reads = countStatements(db, (node) => node.kind === 'SelectQueryNode')
  const templates = new DocumentTemplates({
    repository: new DocumentRepository(reads.db), documents: undefined as never, registry: app.signature.registry, disk: app.signature.disk,
    writeStamp: writeStampOf(db),
  })
  await templates.refresh()
  t.equal(reads.n, 1, 'the first call reads')
  await Promise.all([templates.refresh(), templates.refresh(), templates.refresh()])
  await templates.refresh()
  t.equal(reads.n, 1, 'no write since: nothing read')

  const document = (await uploadDocument(app, manager)).json().data
  const saved = await app.inject({
    method: 'POST', url: `/api/documents/${document.id}/template`, headers: { cookie: manager },
    payload: { name: 'Lease', fields: [{ signer: 0, type: 'signature', page: 1, x: 72, y: 100, width: 200, height: 60 }] },
  })
  t.equal(saved.statusCode, 201, saved.body)
  await Promise.all([templates.refresh(), templates.refresh()])
  t.equal(reads.n, 2, 'after the write: one read, shared by the calls that asked together')
  await templates.refresh()
  t.equal(reads.n, 2)
  t.equal(app.signature.registry.get('lease').label(), 'Lease')
})
