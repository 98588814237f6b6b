import { execFile } from 'node:child_process'
import { mkdir, mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { promisify } from 'node:util'

const run = promisify(execFile)

/**
 * A real, small file system (tmpfs) mounted at `folder`, so a test sees what a full disk does.
 * Mounting needs root or CAP_SYS_ADMIN (CI and the development machine run tests as root).
 */
export async function mountTmpfs(folder: string, sizeKb: number): Promise<{ unmount(): Promise<void> }> {
  await mkdir(folder, { recursive: true })
  await run('mount', ['-t', 'tmpfs', '-o', `size=${sizeKb}k`, 'tmpfs', folder])
  return { unmount: async () => { await run('umount', ['-l', folder]) } }
}

/** Why a tmpfs cannot be mounted here (for a test's `skip`), or false when it can. */
export async function tmpfsRefused(): Promise<string | false> {
  const probe = await mkdtemp(path.join(tmpdir(), 'tmpfs-probe-'))
  try {
    await (await mountTmpfs(probe, 64)).unmount()
    return false
  } catch (error) {
    return `mount -t tmpfs was refused (${(error as Error).message.trim().split('\n').pop()}): a full disk needs root or CAP_SYS_ADMIN`
  } finally {
    await rm(probe, { recursive: true, force: true })
  }
}
