import { readFile } from 'node:fs/promises'
import { fileURLToPath } from 'node:url'

const PACKAGE = fileURLToPath(new URL('../package.json', import.meta.url))

/**
 * The node options of package.json's start script ("node <options> host-app/server.ts"): the V8
 * settings npm start deploys with. `npm run cluster` starts its instances with them and the
 * benchmark measures with them, so neither runs a process that npm start would not.
 */
export async function startScriptNodeArgs(): Promise<string[]> {
  const start: string = JSON.parse(await readFile(PACKAGE, 'utf8')).scripts.start
  const words = start.trim().split(/\s+/)
  if (words[0] !== 'node' || words.at(-1) !== 'host-app/server.ts') throw new Error(`unexpected start script: ${start}`)
  return words.slice(1, -1)
}
