import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import t from 'tap'
import { loadOrCreateJsonKeyFile } from '../../../core/storage/key-file.ts'

async function keysDir(t: { teardown(fn: () => unknown): void }) {
  const dir = await mkdtemp(path.join(tmpdir(), 'json-key-'))
  t.teardown(() => rm(dir, { recursive: true, force: true }))
  return path.join(dir, 'keys')
}

t.test('created once (mode 0600), then read back as it was written, even by concurrent callers', async (t) => {
  const file = path.join(await keysDir(t), 'identity.json')
  let created = 0
  const make = () => ({ p12: `p12-${++created}`, password: 'secret' })
  const [a, b] = await Promise.all([loadOrCreateJsonKeyFile(file, make, ['p12', 'password']), loadOrCreateJsonKeyFile(file, make, ['p12', 'password'])])
  t.same(a, b, 'both callers hold the one file written')
  t.same(await loadOrCreateJsonKeyFile(file, make, ['p12', 'password']), a, 'a later call reads it')
  t.same(JSON.parse(await readFile(file, 'utf8')), a)
  t.equal((await stat(file)).mode & 0o777, 0o600)
})

t.test('a file that does not parse or lacks a field is refused as damaged, not replaced', async (t) => {
  const file = path.join(await keysDir(t), 'identity.json')
  await loadOrCreateJsonKeyFile(file, () => ({ p12: 'x', password: 'y' }), ['p12'])
  for (const content of ['not json', JSON.stringify({ p12: 'x' }), JSON.stringify({ p12: 'x', password: 7 })]) {
    await writeFile(file, content)
    await t.rejects(loadOrCreateJsonKeyFile(file, () => ({ p12: 'new', password: 'new' }), ['p12', 'password']), /damaged/)
    t.equal(await readFile(file, 'utf8'), content, 'left as it was')
  }
})
