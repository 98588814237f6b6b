// Finalize (production mode) on a 1-page and a 100-page daily time record, split into its parts:
//   render  — template.renderFor(record): the view printed to PDF by Chromium
//   stamp   — load, draw the signature image into its box, full rewrite (pdf-lib)
//   sign    — signature dictionary + DocMDP + PKCS#7 (signDocument minus the stamp part)
//   total   — SignatureManager.sign(): worker pool + atomic file write + rows in one transaction
// Run: node --import tsx bench/finalize.bench.ts   (never part of npm test)
import { medianTime } from './lib/time.ts'
import { readFile, rm } from 'node:fs/promises'
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { PROJECT_ROOT } from '../config/app.ts'
import { openDatabase } from '../core/db/database.ts'
import { migrateToLatest } from '../core/db/migrate.ts'
import { signature as signatureConfig } from '../config/signature.ts'
import { dailyTimeRecord, type TimeEntry } from '../host-app/records/daily-time-record.ts'
import { embedStampImage } from '../plugins/signature/pdf/embed-stamp-image.ts'
import { inspectPdf, signDocument } from '../plugins/signature/pdf/index.ts'
import { loadForRewrite, saveNormalized } from '../plugins/signature/pdf/normalize-pdf.ts'
import { drawStampImage } from '../plugins/signature/pdf/sign-document.ts'
import { signatureMigrations } from '../plugins/signature/database/migrations/index.ts'
import { parseSignatureConfig } from '../plugins/signature/signature-config.ts'
import { createSignatureServices } from '../plugins/signature/signature-services.ts'
import { SignatureManager } from '../plugins/signature/signing/signature-manager.ts'
import { makeStampPng } from '../test/fixtures/pdf/stamp-image.ts'

const RUNS = Number(process.env.RUNS ?? 7)

function days(count: number): TimeEntry[] {
  return Array.from({ length: count }, (_, i) => ({
    date: `2026-${String(1 + Math.floor(i / 28) % 12).padStart(2, '0')}-${String(1 + (i % 28)).padStart(2, '0')}`,
    timeIn: '08:30', breakOut: '12:00', breakIn: '12:45', timeOut: '17:15', hours: 8,
  }))
}

const storage = mkdtempSync(join(tmpdir(), 'bench-finalize-'))
// The services use a database the caller opened and migrated, as the host app does.
const database = openDatabase<any>({ sqliteFile: join(storage, 'database', 'app.sqlite') })
await migrateToLatest(database.db, signatureMigrations)
const services = await createSignatureServices(parseSignatureConfig(signatureConfig), { storagePath: storage, viewsRoot: join(PROJECT_ROOT, 'host-app', 'views'), database })
try {
  const owner = { id: 'u-bench', name: 'Bench Signer', email: 'bench@example.com' }
  const created = await services.library.create(owner, { label: 'bench', image: `data:image/png;base64,${makeStampPng().toString('base64')}`, certificate: { mode: 'issue' } })
  const material = await services.library.signingMaterial(owner.id, created.uuid)
  const manager = new SignatureManager({ repository: services.signatures, disk: services.disk, pdf: services.pdf })
  const template = services.registry.get('daily-time-record')
  const box = { page: 1, x: 72, y: 66, width: 240, height: 48 }

  // Rows per page of the view, measured: find the day count that gives 100 pages.
  const recordWith = (n: number) => dailyTimeRecord({
    id: `dtr-bench-${n}`, employeeId: owner.id, employeeName: owner.name, supervisorId: 'u-x', supervisorName: 'X', period: 'bench', department: 'Bench', days: days(n),
  })
  const perPage = await (async () => {
    const pages = (await inspectPdf(await readFile(await template.renderFor(recordWith(400))))).pageCount
    return 400 / pages
  })()

  const rows: string[] = []
  for (const targetPages of [1, 100]) {
    let count = targetPages === 1 ? 5 : Math.round(perPage * targetPages)
    let record = recordWith(count)
    let pdf = await readFile(await template.renderFor(record))
    let pages = (await inspectPdf(pdf)).pageCount
    for (let i = 0; i < 4 && pages !== targetPages; i++) {
      count += Math.round((targetPages - pages) * perPage) || (pages < targetPages ? 1 : -1)
      record = recordWith(count)
      pdf = await readFile(await template.renderFor(record))
      pages = (await inspectPdf(pdf)).pageCount
    }
    const render = await medianTime(RUNS, () => template.renderFor(record))
    const stamp = await medianTime(RUNS, async () => {
      const doc = await loadForRewrite(pdf)
      const image = await embedStampImage(doc, material.image)
      drawStampImage(doc.getPage(0), image, box)
      await saveNormalized(doc, Buffer.from('bench'))
    })
    const stampAndSign = await medianTime(RUNS, () => signDocument(pdf, { stamps: [{ ...box, image: material.image }], signer: { p12: material.p12, password: material.password }, certify: { p: 2 } }))
    const total = await medianTime(RUNS, () => manager.sign({ pdf, material, subject: { type: 'daily-time-record', id: record.id, templateKey: 'daily-time-record' }, placements: [{ slot: 'employee', ...box }] }))
    rows.push(`| ${pages} | ${render.toFixed(0)} | ${stamp.toFixed(0)} | ${(stampAndSign - stamp).toFixed(0)} | ${stampAndSign.toFixed(0)} | ${total.toFixed(0)} | ${(render + total).toFixed(0)} |`)
  }
  console.log(`finalize, median of ${RUNS} runs, ms (sign = signDocument - stamp; store = manager.sign: worker + file + rows)`)
  console.log('| pages | render | stamp | sign | stamp+sign in-process | store (worker, file, rows) | render + store |')
  console.log('|---|---|---|---|---|---|---|')
  for (const row of rows) console.log(row)
} finally {
  await services.close()
  await database.close()
  await rm(storage, { recursive: true, force: true })
}
