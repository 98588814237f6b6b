import { mkdtemp, readdir, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import fc from 'fast-check'
import t from 'tap'
import { LocalDisk } from '../../../core/storage/disk.ts'
import { resolveInside, UnsafePathError } from '../../../core/storage/safe-path.ts'

const root = path.resolve('/srv/storage/disk')

const tricks = [
  '../etc/passwd',
  'samples/../../etc/passwd',
  'samples/..',
  './samples/x.pdf',
  '/etc/passwd',
  '//etc/passwd',
  'C:\\Windows\\win.ini',
  'samples\\..\\..\\x',
  'samples/x.pdf\0.png',
  '\0',
  '..%2f..%2fetc%2fpasswd',
  '%2e%2e/x',
  'samples/%2e%2e/%2e%2e/x',
  'samples//x.pdf',
  'samples/',
  '',
  '..',
  '.',
  'a/\u2024\u2024/b', // one-dot leaders look like '..' on screen
  'samples/\u002e\u002e/x',
  'a\nb',
]

for (const key of tricks) {
  t.throws(() => resolveInside(root, key), UnsafePathError, `refuses ${JSON.stringify(key)}`)
}

t.equal(resolveInside(root, 'samples/daily-time-record/abc.pdf'), path.join(root, 'samples', 'daily-time-record', 'abc.pdf'), 'plain keys resolve inside the root')
t.equal(resolveInside(root, '..a/b..c/...d'), path.join(root, '..a', 'b..c', '...d'), 'dots inside a name are not traversal')

t.test('no string at all resolves outside the root', async (t) => {
  fc.assert(fc.property(fc.string({ unit: 'binary', maxLength: 40 }), (key) => {
    let resolved: string
    try {
      resolved = resolveInside(root, key)
    } catch (error) {
      return error instanceof UnsafePathError
    }
    return resolved.startsWith(root + path.sep)
  }), { numRuns: 5000 })
  t.pass()
})

t.test('a refused key writes nothing anywhere', async (t) => {
  const base = await mkdtemp(path.join(tmpdir(), 'disk-test-'))
  t.teardown(() => rm(base, { recursive: true, force: true }))
  const disk = new LocalDisk('test', path.join(base, 'inner'))
  await t.rejects(disk.put('../escaped.txt', 'x'), UnsafePathError)
  t.same(await readdir(base), [], 'nothing next to the root, no root created')
})
