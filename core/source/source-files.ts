import { readdir, readFile, stat } from 'node:fs/promises'
import path from 'node:path'
import type { TarEntry } from './tar-archive.ts'

// What the archive holds is an allow-list, never "everything but": the project root of a running
// server also holds storage/ (keys, signed documents, the database) and maybe a .env.
const TOP_LEVEL = ['package.json', 'package-lock.json', 'LICENSE', 'README.md', 'tsconfig.json',
  'core', 'plugins', 'panels', 'host-app', 'config', 'public', 'bin', 'docs', 'examples']
const NEVER_DIRS = new Set(['node_modules', 'storage', 'dist', 'build', 'artifacts'])
const NEVER_FILE = /(^\.|\.(key|pem|p12|pfx|sqlite|sqlite-wal|sqlite-shm|log)$)/i
const MAX_FILE_BYTES = 4 * 1024 * 1024

async function walk(root: string, relative: string, out: TarEntry[]): Promise<void> {
  const full = path.join(root, relative)
  const info = await stat(full).catch(() => null)
  if (!info) return
  if (info.isDirectory()) {
    for (const name of (await readdir(full)).sort()) {
      if (name.startsWith('.') || NEVER_DIRS.has(name)) continue
      await walk(root, path.posix.join(relative, name), out)
    }
    return
  }
  if (!info.isFile() || NEVER_FILE.test(path.basename(relative)) || info.size > MAX_FILE_BYTES) return
  out.push({ name: `source/${relative}`, data: await readFile(full), mtime: info.mtime })
}

/** The project's own files under `root` (its source, docs, licence and lockfile), in a stable order. */
export async function sourceFiles(root: string): Promise<TarEntry[]> {
  const entries: TarEntry[] = []
  for (const name of TOP_LEVEL) await walk(root, name, entries)
  return entries
}
