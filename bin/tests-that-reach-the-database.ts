// Lists the test files whose result can depend on the database engine, for CI's PostgreSQL pass:
// a file whose imports never reach the module that opens a database, never read the variables that
// choose one, and start no process of the project's own gives the same result on either engine, so
// running it again under DATABASE_URL only costs time. The test is on the imports the files
// declare (static and dynamic, relative ones followed to the end), so a file that starts to use
// the database is picked up without anyone keeping a list.
import { existsSync, globSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

const projectRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')

/** Where the database is opened (from the project's root), and the variables that choose it. */
const DATABASE_MODULE = 'core/db/database.ts'
const ENGINE_VARIABLES = /\b(DATABASE_URL|USERS_STORE|STORAGE_DRIVER)\b/
/** A test that runs the project's code in a process of its own passes its environment on. */
const STARTS_PROJECT_CODE = /process\.execPath|['"`](npm|npx|tsx)['"`\s]|--import[= ]tsx/

const IMPORT = /\b(?:import|export)\s[^'";]*?\bfrom\s*['"]([^'"]+)['"]|\bimport\s*\(\s*['"]([^'"]+)['"]\s*\)|\bimport\s+['"]([^'"]+)['"]/g

function importsOf(file: string, text: string): string[] {
  const found: string[] = []
  for (const match of text.matchAll(IMPORT)) {
    const specifier = match[1] ?? match[2] ?? match[3] ?? ''
    if (!specifier.startsWith('.')) continue
    const target = path.resolve(path.dirname(file), specifier)
    for (const candidate of [target, `${target}.ts`, path.join(target, 'index.ts')]) {
      if (existsSync(candidate) && !candidate.endsWith(path.sep) && path.extname(candidate)) { found.push(candidate); break }
    }
  }
  return found
}

export function reachesTheDatabase(testFile: string, root = projectRoot): boolean {
  const read = (file: string) => readFileSync(file, 'utf8')
  const databaseModule = path.join(root, DATABASE_MODULE)
  const start = path.resolve(root, testFile)
  if (STARTS_PROJECT_CODE.test(read(start))) return true
  const seen = new Set([start])
  const pending = [start]
  for (let file = pending.pop(); file; file = pending.pop()) {
    if (file === databaseModule) return true
    const text = read(file)
    if (ENGINE_VARIABLES.test(text)) return true
    for (const next of importsOf(file, text)) {
      if (!seen.has(next)) { seen.add(next); pending.push(next) }
    }
  }
  return false
}

/** The files tap's own configuration includes, in its order. */
export function testFiles(root = projectRoot): string[] {
  const { tap } = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as { tap: { include: string[] } }
  return tap.include.flatMap((pattern) => globSync(pattern, { cwd: root })).sort()
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const chosen = testFiles().filter((file) => reachesTheDatabase(file))
  process.stdout.write(`${chosen.join('\n')}\n`)
}
