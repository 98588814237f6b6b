// `npm run make:resource -- Invoice --table invoices [--out path] [--framework specifier] [--force]`
// Reads the table's columns from the configured database (SQLite in STORAGE_PATH by default,
// PostgreSQL when DATABASE_URL is set) and writes a resource file for it (Filament's
// make:filament-resource --generate). Refuses to overwrite a file unless --force. A refusal
// prints "ERR_...: message" on stderr and exits 1; nothing is written.
import { writeFile, mkdir } from 'node:fs/promises'
import { existsSync } from 'node:fs'
import path from 'node:path'
import { parseArgs } from 'node:util'
import { loadAppEnv, PROJECT_ROOT } from '../config/app.ts'
import { ERR_GENERATOR_USAGE, ERR_RESOURCE_FILE_EXISTS, GeneratorError } from './make-resource/generator-errors.ts'
import { readTableColumns } from './make-resource/read-table-columns.ts'
import { resourceFile } from './make-resource/resource-file.ts'

const USAGE = 'usage: npm run make:resource -- <Name> --table <table> [--out <file.ts>] [--framework <import specifier>] [--force]'

async function main(argv: string[]): Promise<string> {
  let parsed
  try {
    parsed = parseArgs({ args: argv, allowPositionals: true, options: { table: { type: 'string' }, out: { type: 'string' }, framework: { type: 'string' }, force: { type: 'boolean', default: false } } })
  } catch (error) {
    throw ERR_GENERATOR_USAGE(`${(error as Error).message}\n${USAGE}`)
  }
  const { values, positionals } = parsed
  const [name, ...extra] = positionals
  if (!name || extra.length > 0 || !/^[A-Z][A-Za-z0-9]*$/.test(name)) throw ERR_GENERATOR_USAGE(`Give one record name in PascalCase, e.g. Invoice\n${USAGE}`)
  const table = values.table
  if (!table || !/^[A-Za-z_][A-Za-z0-9_]*$/.test(table)) throw ERR_GENERATOR_USAGE(`Give the table with --table, e.g. --table invoices (letters, digits and _)\n${USAGE}`)
  const kebab = name.replace(/([a-z0-9])([A-Z])/g, '$1-$2').toLowerCase()
  // npm run starts scripts in the package's folder; INIT_CWD is where the command was typed.
  const out = path.resolve(process.env.INIT_CWD ?? process.cwd(), values.out ?? path.join('resources', `${kebab}-resource.ts`))
  // Checked before the database is opened, and again by the exclusive write below.
  if (existsSync(out) && !values.force) throw ERR_RESOURCE_FILE_EXISTS(`${out} exists; nothing was written (--force replaces it)`)
  const env = loadAppEnv()
  const { engine, columns } = await readTableColumns({
    url: env.DATABASE_URL,
    schema: env.DATABASE_SCHEMA,
    sqliteFile: path.join(env.STORAGE_PATH, 'database', 'app.sqlite'),
  }, table)
  let framework = values.framework
  if (!framework) {
    const relative = path.relative(path.dirname(out), path.join(PROJECT_ROOT, 'core', 'index.ts')).split(path.sep).join('/')
    framework = relative.startsWith('.') ? relative : `./${relative}`
  }
  const source = resourceFile({ name, table, columns, engine, framework })
  await mkdir(path.dirname(out), { recursive: true })
  try {
    await writeFile(out, source, { flag: values.force ? 'w' : 'wx' })
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') throw ERR_RESOURCE_FILE_EXISTS(`${out} exists; nothing was written (--force replaces it)`)
    throw error
  }
  return out
}

try {
  const out = await main(process.argv.slice(2))
  console.log(`Wrote ${out}`)
} catch (error) {
  if (error instanceof GeneratorError) {
    console.error(`${error.code}: ${error.message}`)
    process.exit(1)
  }
  throw error
}
