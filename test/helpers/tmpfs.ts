import { execFile } from 'node:child_process'
import { mkdir } from 'node:fs/promises'
import { promisify } from 'node:util'

const run = promisify(execFile)

/**
 * A real, small file system (tmpfs) mounted at `folder`, so a test sees what a full disk does.
 * Needs root (CI and the development machine run tests as root); `refused` says why when the
 * mount is refused, so the test can say why it did not run.
 */
export async function mountTmpfs(folder: string, sizeKb: number): Promise<{ unmount(): Promise<void> } | { refused: string }> {
  await mkdir(folder, { recursive: true })
  try {
    await run('mount', ['-t', 'tmpfs', '-o', `size=${sizeKb}k`, 'tmpfs', folder])
  } catch (error) {
    return { refused: `mount -t tmpfs refused (${(error as Error).message.trim().split('\n').pop()}); a full disk needs root or CAP_SYS_ADMIN` }
  }
  return { unmount: async () => { await run('umount', ['-l', folder]) } }
}
