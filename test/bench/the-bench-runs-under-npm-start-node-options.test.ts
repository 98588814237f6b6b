// The benchmark must measure what is deployed: its sections and its server rows take their node
// options from package.json's start script, so a V8 setting there (the young generation's size,
// which moves RSS by ~25 MiB) is never measured without.
import { readFile } from 'node:fs/promises'
import t from 'tap'
import { startScriptNodeArgs } from '../../bench/lib/start-server.ts'

t.test('the node options are read from the start script', async (t) => {
  const pkg = JSON.parse(await readFile(new URL('../../package.json', import.meta.url), 'utf8'))
  const args = await startScriptNodeArgs()
  t.equal(`node ${args.join(' ')} host-app/server.ts`, pkg.scripts.start)
  t.ok(args.includes('--import') && args.includes('tsx'), 'with the TypeScript loader')
  // Start RSS 163-167 -> 143-147 MiB after boot; CPU per request unchanged (issue 22, README).
  t.ok(args.includes('--max-semi-space-size=4'), 'npm start caps the young generation')
})
