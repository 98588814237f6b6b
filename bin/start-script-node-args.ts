import { readFile } from 'node:fs/promises'
import { fileURLToPath } from 'node:url'

const PACKAGE = fileURLToPath(new URL('../package.json', import.meta.url))

/** What npm start runs: host-app/server.ts compiled to JavaScript by bin/compile-for-start.ts (prestart). */
export const START_ENTRY = 'dist/host-app/server.js'

/**
 * The node options of package.json's start script ("node <options> dist/host-app/server.js"): the
 * V8 settings npm start deploys with. `npm run cluster` starts its instances with them and the
 * benchmark measures with them, so neither runs a process that npm start would not. They hold no
 * TypeScript loader: a caller that runs .ts files adds `--import tsx` itself.
 */
export async function startScriptNodeArgs(): Promise<string[]> {
  const start: string = JSON.parse(await readFile(PACKAGE, 'utf8')).scripts.start
  const words = start.trim().split(/\s+/)
  if (words[0] !== 'node' || words.at(-1) !== START_ENTRY) throw new Error(`unexpected start script: ${start}`)
  return words.slice(1, -1)
}
