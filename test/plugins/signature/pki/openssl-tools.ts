// openssl as the PKI's independent client: runs asynchronously, in a folder of the test's own.
import { execFile } from 'node:child_process'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { promisify } from 'node:util'

const run = promisify(execFile)

interface TapLike { teardown(fn: () => unknown): void }

export async function opensslFolder(t: TapLike) {
  const dir = await mkdtemp(path.join(tmpdir(), 'pki-test-'))
  t.teardown(() => rm(dir, { recursive: true, force: true }))
  return {
    dir,
    file: (name: string) => path.join(dir, name),
    /** stdout and stderr together (openssl splits its verdicts between them); never throws. */
    async openssl(...args: string[]): Promise<{ code: number; output: string }> {
      try {
        const { stdout, stderr } = await run('openssl', args, { cwd: dir, encoding: 'latin1', maxBuffer: 16 * 1024 * 1024 })
        return { code: 0, output: stdout + stderr }
      } catch (error) {
        const failed = error as { code?: number; stdout?: string; stderr?: string }
        return { code: typeof failed.code === 'number' ? failed.code : -1, output: (failed.stdout ?? '') + (failed.stderr ?? '') }
      }
    },
  }
}

export function toPem(der: Buffer, label = 'CERTIFICATE'): string {
  return `-----BEGIN ${label}-----\n${der.toString('base64').replace(/.{64}/g, '$&\n').replace(/\n?$/, '\n')}-----END ${label}-----\n`
}
