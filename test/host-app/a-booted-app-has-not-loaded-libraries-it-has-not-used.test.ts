// Every library loaded at start stays in the process's RSS. The heavy ones that a booted app
// serving pages does not use are loaded when first needed: playwright-core (~50 MiB) when the
// Chromium renderer first launches, pdf-lib (~10 MiB) with the first render or in the PDF worker,
// pg and ioredis only when DATABASE_URL / REDIS_URL are set, prom-client only with METRICS=on. All five are CommonJS, so a load
// shows in require's cache even when it came from an ESM import.
import { createRequire } from 'node:module'
import t from 'tap'
import { buildTestApp, DEMO, login } from '../helpers/app.ts'

const LAZY = ['playwright-core', 'pdf-lib', 'pg', 'ioredis', 'prom-client']
const loaded = () => {
  const files = Object.keys(createRequire(import.meta.url).cache)
  return LAZY.filter((name) => files.some((file) => file.includes(`/node_modules/${name}/`)))
}

const skip = process.env.DATABASE_URL ? 'the suite runs on PostgreSQL: pg is in use' : false
t.test('a booted app on SQLite serving pages has not loaded the PDF, browser or server-database clients', { skip }, async (t) => {
  const app = await buildTestApp(t)
  const cookie = await login(app, DEMO.admin.email)
  for (const url of ['/admin/signature-templates', '/admin/users', '/app/my-signatures']) {
    const response = await app.inject({ url, headers: { cookie } })
    t.equal(response.statusCode, 200, url)
  }
  t.same(loaded(), [], 'none of them is loaded')
})
