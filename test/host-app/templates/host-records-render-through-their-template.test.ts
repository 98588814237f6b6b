import { execFile } from 'node:child_process'
import { readFile } from 'node:fs/promises'
import { promisify } from 'node:util'
import { PDFDocument } from 'pdf-lib'
import t from 'tap'
import { isSignable } from '../../../plugins/signature/contracts/signable.ts'
import { signableRecords } from '../../../plugins/signature/signables/signable-records.ts'
import { seedSignableRecords } from '../../../host-app/records/seed-signable-records.ts'
import { buildTestApp } from '../../helpers/app.ts'

const run = promisify(execFile)

t.test('a seeded payslip record is Signable; its PDF comes from its template, named after its id', async (t) => {
  const app = await buildTestApp(t)
  const registry = app.signature.registry
  const [record] = await signableRecords(registry, seedSignableRecords()).forTemplate('payslip')
  t.ok(isSignable(record))
  const file = await record!.getSignablePdfPath()
  t.equal(file, registry.disk.path(`documents/payslip/${record!.getSignableId()}.pdf`), 'on the signature disk, named after the record')
  await run('qpdf', ['--check', file])
  t.equal((await PDFDocument.load(await readFile(file))).getTitle(), `Payslip ${record!.getSignableId()}`, 'the record\'s data reached the PDF')
})
