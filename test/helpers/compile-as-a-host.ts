// Test helper: a folder of a host's TypeScript files compiled with tsc as a new host would, the
// package name resolving to this checkout's entry points (test/packaging boots the packed build).
import { execFile } from 'node:child_process'
import { symlink, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { promisify } from 'node:util'
import { PROJECT_ROOT } from '../../config/app.ts'

const run = promisify(execFile)

/** tsc over `include` (paths relative to `dir`): its exit code and what it printed. */
export async function compileAsAHost(dir: string, include: readonly string[]): Promise<{ code: number; output: string }> {
  await writeFile(path.join(dir, 'package.json'), JSON.stringify({ type: 'module' }))
  await writeFile(path.join(dir, 'tsconfig.json'), JSON.stringify({
    compilerOptions: {
      target: 'ES2022', module: 'NodeNext', moduleResolution: 'NodeNext', strict: true, skipLibCheck: true,
      allowImportingTsExtensions: true, noEmit: true, types: ['node'],
      paths: {
        'fastify-panels-signature': [path.join(PROJECT_ROOT, 'core', 'index.ts')],
        'fastify-panels-signature/signature': [path.join(PROJECT_ROOT, 'plugins', 'signature', 'index.ts')],
      },
    },
    include,
  }))
  await symlink(path.join(PROJECT_ROOT, 'node_modules'), path.join(dir, 'node_modules'))
  const tsc = await run(process.execPath, [path.join(PROJECT_ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', dir]).catch((error) => error)
  return { code: tsc.code ?? 0, output: tsc.stdout ?? '' }
}
