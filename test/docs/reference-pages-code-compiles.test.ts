// The reference pages (docs/reference/*.md) show TypeScript only as whole files
// (`<!-- file: NAME -->` above each block): written into a folder per page, with the package name
// pointing at this checkout's entry points, every page's files compile with tsc. The generator's
// page imports the file its command writes: the test runs that command as the page shows it.
import { execFile } from 'node:child_process'
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { promisify } from 'node:util'
import Sqlite from 'better-sqlite3'
import t from 'tap'
import { PROJECT_ROOT } from '../../config/app.ts'
import { compileAsAHost } from '../helpers/compile-as-a-host.ts'
import { markdownFiles, unmarkedBlocks } from '../helpers/markdown-files.ts'

const run = promisify(execFile)
const REFERENCE = path.join(PROJECT_ROOT, 'docs', 'reference')

t.test('every TypeScript block of the reference is a whole file, and each page\'s files compile', async (t) => {
  const dir = await mkdtemp(path.join(tmpdir(), 'reference-'))
  t.teardown(() => rm(dir, { recursive: true, force: true }))
  const include: string[] = []
  for (const page of (await readdir(REFERENCE)).filter((name) => name.endsWith('.md')).sort()) {
    const markdown = await readFile(path.join(REFERENCE, page), 'utf8')
    t.same(unmarkedBlocks(markdown, 'ts'), [], `${page}: no TypeScript block that is not a whole file`)
    const files = markdownFiles(markdown)
    if (files.size === 0) continue
    const folder = path.join(dir, page.replace(/\.md$/, ''))
    await mkdir(folder)
    for (const [name, text] of files) {
      await writeFile(path.join(folder, name), text)
      include.push(`${path.basename(folder)}/${name}`)
    }
    if (page === 'generator.md') await generateAsThePageDoes(t, markdown, folder)
  }
  t.ok(include.length >= 7, `the pages' files: ${include.join(', ')}`)

  const tsc = await compileAsAHost(dir, include)
  t.equal(tsc.code, 0, `tsc: ${tsc.output}`)
})

/** The page's table made in a SQLite file, then its `npm run make:resource` line, writing beside office.ts. */
async function generateAsThePageDoes(t: { ok(value: unknown, message: string): unknown }, markdown: string, folder: string): Promise<void> {
  const create = /sqlite3 storage\/database\/app\.sqlite "([^"]+)"/.exec(markdown)?.[1]
  const command = /npm run make:resource -- (Invoice --table invoices) --out \S+/.exec(markdown)?.[1]
  t.ok(create && command, 'the page shows the table and the command')
  const storage = path.join(folder, '.storage')
  await mkdir(path.join(storage, 'database'), { recursive: true })
  const db = new Sqlite(path.join(storage, 'database', 'app.sqlite'))
  db.exec(create!)
  db.close()
  const clean = Object.fromEntries(Object.entries(process.env).filter(([key]) => !key.startsWith('DATABASE_') && key !== 'INIT_CWD'))
  await run(process.execPath, ['--import', 'tsx', 'bin/make-resource.ts', ...command!.split(' '), '--out', path.join(folder, 'invoice-resource.ts'), '--framework', 'fastify-panels-signature'],
    { cwd: PROJECT_ROOT, env: { ...clean, STORAGE_PATH: storage } })
}
