// The benchmark must measure what is deployed: its sections and its server rows take their node
// options from package.json's start script, so a V8 setting there (the young generation's size,
// which moves RSS by ~25 MiB) is never measured without.
import { readFile } from 'node:fs/promises'
import t from 'tap'
import { startScriptNodeArgs } from '../../bench/lib/start-server.ts'
import { START_ENTRY } from '../../bin/start-script-node-args.ts'

t.test('the node options are read from the start script', async (t) => {
  const pkg = JSON.parse(await readFile(new URL('../../package.json', import.meta.url), 'utf8'))
  const args = await startScriptNodeArgs()
  t.equal(`node ${args.join(' ')} ${START_ENTRY}`, pkg.scripts.start)
  t.notOk(args.includes('tsx'), 'npm start runs compiled JavaScript, without the TypeScript loader')
  t.match(pkg.scripts.prestart, /bin\/compile-for-start\.ts/, 'which prestart compiles')
  // Start RSS 163-167 -> 143-147 MiB after boot; CPU per request unchanged (issue 22, README).
  t.ok(args.includes('--max-semi-space-size=4'), 'npm start caps the young generation')
})
