// The peers the benchmark measures the app against live in bench/peers/ with a package.json and
// lockfile of their own: installed here, on demand, never by the app's npm install and never
// loaded by npm test. `npm install` from the lockfile, not `npm ci`: ci refuses this lockfile
// because @documenso/pdf-sign names platform packages (darwin, win32) that were never published.
import { spawnSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import { fileURLToPath } from 'node:url'

export const PEERS_DIR = fileURLToPath(new URL('../peers/', import.meta.url))

/** Installs bench/peers/node_modules from its lockfile when it is missing. */
export function ensurePeersInstalled(): void {
  if (existsSync(`${PEERS_DIR}node_modules/.package-lock.json`)) return
  process.stderr.write('bench: installing the peers (bench/peers, npm install from its lockfile)...\n')
  const npm = spawnSync('npm', ['install', '--no-audit', '--no-fund', '--prefix', PEERS_DIR], { stdio: ['ignore', 'inherit', 'inherit'] })
  if (npm.status !== 0) throw new Error(`npm install in bench/peers failed (exit ${npm.status})`)
}

/** A module of bench/peers (plain JavaScript, resolved against bench/peers/node_modules). */
export async function importPeer<T>(file: string): Promise<T> {
  ensurePeersInstalled()
  return (await import(new URL(`../peers/${file}`, import.meta.url).href)) as T
}
