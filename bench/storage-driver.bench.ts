// The storage drivers side by side (issue 36 item 15): STORAGE_DRIVER=disk against =database,
// each side in a process of its own (same PostgreSQL for the rows on both sides, a schema each).
//   sign      — SignatureManager.sign() of a 1-page PDF: worker + document stored + rows committed
//   put+get   — a 100-page PDF (~10 MB: each page carries 100 KiB of incompressible data, as a
//               scan would) stored and read back
//   put+path  — the same stored, then a file for it (the disk's own; the database's spool copy)
//   put, get  — the two halves of put+get apart (put replacing the object a run before wrote)
//   text row  — (database side) get as the driver read before: `select bytes`, a row whose bytea
//               node-postgres receives as hex text and decodes; get now reads binary COPY data
//   lo        — (database side) the same bytes as a PostgreSQL large object: lo_from_bytea + lo_get
// Wall and CPU milliseconds (process.cpuUsage of this process, worker threads included; the
// PostgreSQL server's own CPU is not in it), medians.
// Run: node --import tsx bench/storage-driver.bench.ts   (about a minute; never part of npm test)
import { spawn } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { mkdtempSync } from 'node:fs'
import { readFile, rm } from 'node:fs/promises'
import { loadavg, tmpdir } from 'node:os'
import { join } from 'node:path'
import { performance } from 'node:perf_hooks'
import { fileURLToPath } from 'node:url'
import { sql } from 'kysely'
import { PDFDocument } from 'pdf-lib'
import pg from 'pg'
import { PROJECT_ROOT } from '../config/app.ts'
import { signature as signatureConfig } from '../config/signature.ts'
import { openDatabase } from '../core/db/database.ts'
import { migrateToLatest } from '../core/db/migrate.ts'
import { signatureMigrations } from '../plugins/signature/database/migrations/index.ts'
import { parseSignatureConfig } from '../plugins/signature/signature-config.ts'
import { createSignatureServices } from '../plugins/signature/signature-services.ts'
import { SignatureManager } from '../plugins/signature/signing/signature-manager.ts'
import { makePdf } from '../test/fixtures/pdf/make-pdf.ts'
import { makeStampPng } from '../test/fixtures/pdf/stamp-image.ts'

const URL = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test'
const RUNS = Number(process.env.RUNS ?? 9)
// A 10 MB object took seconds through PostgreSQL on a loaded 2-core machine (hex text): fewer runs kept the bench under 2 minutes.
const BIG_RUNS = Number(process.env.BIG_RUNS ?? 5)
const side = process.argv.find((a) => a.startsWith('--side='))?.slice(7) as 'disk' | 'database' | undefined

interface Sample { wall: number; cpu: number }
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!

async function measure(runs: number, fn: (i: number) => Promise<unknown>, warmups = 2): Promise<Sample> {
  for (let i = 0; i < warmups; i++) await fn(-1 - i)
  const walls: number[] = []
  const cpus: number[] = []
  for (let i = 0; i < runs; i++) {
    const cpu = process.cpuUsage()
    const start = performance.now()
    await fn(i)
    walls.push(performance.now() - start)
    const used = process.cpuUsage(cpu)
    cpus.push((used.user + used.system) / 1000)
  }
  return { wall: median(walls), cpu: median(cpus) }
}

async function hundredPages(): Promise<Uint8Array> {
  const doc = await PDFDocument.load(await makePdf({ pages: 100 }))
  // Incompressible bytes per page, kept by the file like a scanned page's image.
  for (const page of doc.getPages()) page.node.set(doc.context.obj('BenchData'), doc.context.register(doc.context.stream(randomBytes(100 * 1024))))
  return doc.save()
}

async function runSide(driver: 'disk' | 'database'): Promise<Record<string, Sample | number>> {
  const schema = `bench_storage_${driver}_${randomBytes(3).toString('hex')}`
  const admin = new pg.Client({ connectionString: URL })
  await admin.connect()
  await admin.query(`create schema "${schema}"`)
  const storage = mkdtempSync(join(tmpdir(), `bench-storage-${driver}-`))
  const database = openDatabase<any>({ url: URL, schema })
  try {
    await migrateToLatest(database.db, signatureMigrations)
    const config = parseSignatureConfig({ ...signatureConfig, timestamps: { ...signatureConfig.timestamps, enabled: false } })
    const services = await createSignatureServices(config, { storagePath: storage, storageDriver: driver, viewsRoot: join(PROJECT_ROOT, 'host-app', 'views'), database })
    try {
      const owner = { id: 'u-bench', name: 'Bench Signer', email: 'bench@example.com' }
      const created = await services.library.create(owner, { label: 'bench', image: `data:image/png;base64,${makeStampPng().toString('base64')}`, certificate: { mode: 'issue' } })
      const material = await services.library.signingMaterial(owner.id, created.uuid)
      const manager = new SignatureManager({ repository: services.signatures, disk: services.disk, pdf: services.pdf })
      const onePage = await makePdf()
      const sign = await measure(RUNS, () => manager.sign({ pdf: onePage, material, subject: { type: 'bench', id: 'one', templateKey: null }, placements: [{ slot: null, page: 1, x: 72, y: 66, width: 240, height: 48 }] }))

      const big = await hundredPages()
      const disk = services.disk
      const putGet = await measure(BIG_RUNS, async (i) => {
        await disk.put(`bench/get-${i}.pdf`, big)
        const back = await disk.get(`bench/get-${i}.pdf`)
        if (back.length !== big.length) throw new Error('round trip lost bytes')
      }, 1)
      const putPath = await measure(BIG_RUNS, async (i) => {
        await disk.put(`bench/path-${i}.pdf`, big)
        const file = await disk.localPath(`bench/path-${i}.pdf`)
        if ((await readFile(file)).length !== big.length) throw new Error('materialized copy lost bytes')
      }, 1)
      await disk.put('bench/halves.pdf', big)
      const put = await measure(BIG_RUNS, () => disk.put('bench/halves.pdf', big), 1)
      const get = await measure(BIG_RUNS, async () => {
        if ((await disk.get('bench/halves.pdf')).length !== big.length) throw new Error('get lost bytes')
      }, 1)
      const result: Record<string, Sample | number> = { bytes: big.length, sign, putGet, putPath, put, get }
      if (driver === 'database') {
        result.textRow = await measure(BIG_RUNS, async () => {
          const row = await database.db.selectFrom('stored_objects').select('bytes').where('key', '=', 'bench/halves.pdf').executeTakeFirstOrThrow()
          if ((row.bytes as Buffer).length !== big.length) throw new Error('text row lost bytes')
        }, 1)
        result.largeObject = await measure(BIG_RUNS, async () => {
          const { rows } = await sql<{ oid: number }>`select lo_from_bytea(0, ${Buffer.from(big)}) as oid`.execute(database.db)
          const back = await sql<{ bytes: Buffer }>`select lo_get(${rows[0]!.oid}::oid) as bytes`.execute(database.db)
          await sql`select lo_unlink(${rows[0]!.oid}::oid)`.execute(database.db)
          if (back.rows[0]!.bytes.length !== big.length) throw new Error('large object lost bytes')
        }, 1)
      }
      return result
    } finally {
      await services.close()
    }
  } finally {
    await database.close()
    await admin.query(`drop schema "${schema}" cascade`)
    await admin.end()
    await rm(storage, { recursive: true, force: true })
  }
}

if (side) {
  process.stdout.write(JSON.stringify(await runSide(side)))
} else {
  const child = (which: string) => new Promise<Record<string, Sample | number>>((resolve, reject) => {
    const proc = spawn(process.execPath, ['--import', 'tsx', fileURLToPath(import.meta.url), `--side=${which}`], { stdio: ['ignore', 'pipe', 'inherit'] })
    let out = ''
    proc.stdout.on('data', (c) => { out += c })
    proc.once('exit', (code) => (code === 0 ? resolve(JSON.parse(out)) : reject(new Error(`${which} side exited with ${code}`))))
  })
  // One side at a time: each has both cores.
  const loadBefore = loadavg()[0]!
  const disk = await child('disk')
  const database = await child('database')
  const cell = (s: Sample | number | undefined) => (typeof s === 'object' ? `${s.wall.toFixed(1)} (${s.cpu.toFixed(1)} CPU)` : '-')
  console.log(`100-page PDF: ${((disk.bytes as number) / 1024 / 1024).toFixed(1)} MiB; medians of ${RUNS} (sign) and ${BIG_RUNS} (100 pages) runs, ms wall (ms CPU of the process); load average ${loadBefore.toFixed(2)} before, ${loadavg()[0]!.toFixed(2)} after`)
  console.log('| row | disk | database |')
  console.log('| --- | --- | --- |')
  for (const [row, key] of [['sign (1 page)', 'sign'], ['100 pages put + get', 'putGet'], ['100 pages put + local path', 'putPath'], ['100 pages put (replacing)', 'put'], ['100 pages get', 'get'],
    ['100 pages read as a row (select bytes: hex text, the driver before)', 'textRow'], ['100 pages as a large object (lo_from_bytea + lo_get)', 'largeObject']] as const) {
    console.log(`| ${row} | ${cell(disk[key])} | ${cell(database[key])} |`)
  }
}
