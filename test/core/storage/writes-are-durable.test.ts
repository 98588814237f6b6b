// Issue 36, item 6: a write is durable before it is acknowledged — the temporary file is fsynced,
// renamed (or linked) over its name, and the directory is fsynced, in that order. Observed on a
// real file system through the system calls the process makes (strace), not through a fake fs.
import { execFile } from 'node:child_process'
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { promisify } from 'node:util'
import t, { type Test } from 'tap'
import { PROJECT_ROOT } from '../../../config/app.ts'

const run = promisify(execFile)
const hasStrace = await run('strace', ['-V']).then(() => true, () => false)

/** The system calls (one per line, a call split across threads joined again) of `script` run by Node. */
async function traced(t: Test, script: string, root: string): Promise<string[]> {
  const dir = await mkdtemp(path.join(tmpdir(), 'durable-trace-'))
  t.teardown(() => rm(dir, { recursive: true, force: true }))
  const file = path.join(dir, 'script.mts')
  const log = path.join(dir, 'strace.log')
  await writeFile(file, `import { LocalDisk } from ${JSON.stringify(path.join(PROJECT_ROOT, 'core/storage/disk.ts'))}\nconst disk = new LocalDisk('t', ${JSON.stringify(root)})\n${script}\n`)
  await run('strace', ['-f', '-qq', '-e', 'trace=openat,fsync,fdatasync,rename,renameat,renameat2,link,linkat', '-o', log,
    process.execPath, '--import', 'tsx', file], { cwd: PROJECT_ROOT })
  const unfinished = new Map<string, string>()
  const calls: string[] = []
  for (const line of (await readFile(log, 'utf8')).split('\n')) {
    // strace pads the pid column ("1818  openat(" but "12345 openat("): split on the run of spaces.
    const [, pid, text = ''] = /^(\d+)\s+(.*)$/.exec(line) ?? [, '', line]
    if (text.endsWith('<unfinished ...>')) { unfinished.set(pid!, text.replace(/\s*<unfinished \.\.\.>$/, '')); continue }
    const resumed = /^<\.\.\. \w+ resumed>(.*)$/.exec(text)
    calls.push(resumed ? unfinished.get(pid!)! + resumed[1] : text)
  }
  return calls
}

/** Index of the first call at or after `from` matching `pattern`; -1 when none. */
function find(calls: string[], pattern: RegExp, from = 0): number {
  for (let i = from; i < calls.length; i++) if (pattern.test(calls[i]!)) return i
  return -1
}

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')

/**
 * write (temporary) -> fsync (temporary) -> rename/link (to the name) -> fsync (directory), in
 * order: the steps of that sequence missing from the trace, none when the order holds.
 */
function durableOrderProblems(calls: string[], root: string, key: string, publish: 'rename' | 'link'): string[] {
  const problems: string[] = []
  const destination = path.join(root, key)
  const folder = path.dirname(destination)
  const temporary = `${escape(folder)}/\\.${escape(path.basename(destination))}\\.[0-9a-f]{12}\\.tmp`
  const created = find(calls, new RegExp(`^openat\\(AT_FDCWD, "${temporary}", O_WRONLY\\|O_CREAT`))
  if (created < 0) problems.push(`${key}: the bytes go to a temporary file next to the destination`)
  const tempPath = /"([^"]+)"/.exec(calls[created] ?? '')?.[1] ?? ''
  const reopened = find(calls, new RegExp(`^openat\\(AT_FDCWD, "${escape(tempPath)}", O_RDONLY.*= (\\d+)$`), created + 1)
  const tempFd = /= (\d+)$/.exec(calls[reopened] ?? '')?.[1]
  const synced = find(calls, new RegExp(`^f(data)?sync\\(${tempFd}\\)\\s+= 0`), reopened + 1)
  if (!(reopened > created && synced > reopened)) problems.push(`${key}: the temporary file is fsynced`)
  const published = find(calls, new RegExp(`^${publish}(at2?)?\\(.*"${escape(tempPath)}", .*"${escape(destination)}"`), synced + 1)
  if (!(published > synced)) problems.push(`${key}: then ${publish === 'link' ? 'linked' : 'renamed'} over its name`)
  const dirOpened = find(calls, new RegExp(`^openat\\(AT_FDCWD, "${escape(folder)}", O_RDONLY.*= (\\d+)$`), published + 1)
  const dirFd = /= (\d+)$/.exec(calls[dirOpened] ?? '')?.[1]
  const dirSynced = find(calls, new RegExp(`^f(data)?sync\\(${dirFd}\\)\\s+= 0`), dirOpened + 1)
  if (!(dirOpened > published && dirSynced > dirOpened)) problems.push(`${key}: then the directory is fsynced, so the new name survives a power cut`)
  return problems
}

t.test('put, putWith and putIfAbsent: temporary file fsynced, renamed or linked, directory fsynced', { skip: hasStrace ? false : 'strace is not installed' }, async (t) => {
  const root = await mkdtemp(path.join(tmpdir(), 'durable-'))
  t.teardown(() => rm(root, { recursive: true, force: true }))
  const calls = await traced(t, [
    `await disk.put('signed/ab/one.pdf', Buffer.alloc(70_000, 1))`,
    `await disk.putWith('documents/t/two.pdf', async (temporary) => { const { writeFile } = await import('node:fs/promises'); await writeFile(temporary, 'printed') })`,
    `await disk.putIfAbsent('sessions/s1/certificate.pdf', 'certificate')`,
  ].join('\n'), root)
  const problems = [
    ...durableOrderProblems(calls, root, 'signed/ab/one.pdf', 'rename'),
    ...durableOrderProblems(calls, root, 'documents/t/two.pdf', 'rename'),
    ...durableOrderProblems(calls, root, 'sessions/s1/certificate.pdf', 'link'),
  ]
  t.same(problems, [], 'for put, putWith and putIfAbsent: temporary file written, fsynced, renamed or linked over the name, directory fsynced', { calls: calls.filter((c) => /sync|\.tmp|link|rename/.test(c)).slice(0, 60) })
  t.same((await readFile(path.join(root, 'signed/ab/one.pdf'))).length, 70_000, 'the file is complete under its name')
  for (const folder of ['signed/ab', 'documents/t', 'sessions/s1']) {
    t.same((await readdir(path.join(root, folder))).filter((n) => n.endsWith('.tmp')), [], `no temporary file is left in ${folder}`)
  }
})
