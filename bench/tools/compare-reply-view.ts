// What reply.view(name, data) costs next to the project's direct render, and next to
// @fastify/view with Eta (issue 37, item 9): one app, one view of 50 escaped rows, three routes:
//   direct       reply.fragment(absolutePath, data)  compiled once, called directly
//   reply.view   reply.view('bench/tools/view-list', data): the decorator for @fastify/view habits
//   fastify-view @fastify/view 12 with the same Eta settings (propertyName 'fastifyView'), when it
//                can be imported: FASTIFY_VIEW=/path/to/node_modules/@fastify/view, or installed
//   node --import tsx bench/tools/compare-reply-view.ts [requests per round] [rounds]
// CPU per request of this process (process.cpuUsage around each app.inject). The routes take turns
// request by request, so a change of the machine's load falls on all of them alike; each round's
// mean is kept, and the median of the rounds reported. Not part of npm test or npm run bench.
import path from 'node:path'
import { pathToFileURL } from 'node:url'
import { Eta } from 'eta'
import type { FastifyInstance, FastifyPluginAsync } from 'fastify'
import { createApp } from '../../core/index.ts'
import { escapeHtml } from '../../core/views/escape-html.ts'
import { compiledViews } from '../../core/views/compiled-views.ts'
import { PROJECT_ROOT } from '../../config/app.ts'
import { median } from '../lib/rows.ts'

const [perRound = '4000', rounds = '5'] = process.argv.slice(2)
const VIEW = path.join(PROJECT_ROOT, 'bench', 'tools', 'view-list.eta')
const data = {
  title: 'People & <roles>',
  rows: Array.from({ length: 50 }, (_, i) => ({ name: `Person ${i} <${i}>`, email: `p${i}@example.com`, role: i % 3 ? 'staff' : 'manager & co' })),
}

async function fastifyView(): Promise<{ default: FastifyPluginAsync<Record<string, unknown>> } | null> {
  try {
    return await import(process.env.FASTIFY_VIEW ? pathToFileURL(path.join(process.env.FASTIFY_VIEW, 'index.js')).href : '@fastify/view')
  } catch {
    return null
  }
}

const peer = await fastifyView()
let peerRender: ((name: string, data: object) => Promise<string>) | undefined
const routes = async (app: FastifyInstance) => {
  app.get('/direct', async (_request, reply) => reply.fragment(VIEW, data))
  app.get('/reply-view', async (_request, reply) => reply.view('bench/tools/view-list', data))
  if (peer) {
    await app.register(async (scope) => {
      await scope.register(peer.default, {
        engine: { eta: new Eta({ views: PROJECT_ROOT, autoEscape: true, escapeFunction: escapeHtml, cache: true }) },
        root: PROJECT_ROOT, production: true, propertyName: 'fastifyView',
      })
      peerRender = (scope as unknown as { fastifyView(name: string, data: object): Promise<string> }).fastifyView.bind(scope)
      scope.get('/fastify-view', async (_request, reply) => (reply as unknown as { fastifyView(name: string, data: object): unknown }).fastifyView('bench/tools/view-list.eta', data))
    })
  }
}
const app = await createApp({
  access: { roles: { reader: [] }, adminRoles: ['reader'] },
  users: [{ name: 'Rita Reader', email: 'reader@example.com', role: 'reader', password: 'password' }],
  views: { production: true }, plugins: [routes],
})
await app.ready()
// Signed in, as a page's reader is: the project's views get a CSRF token, which an anonymous
// request would have to create and seal into a new cookie (that, not rendering, would be measured).
const login = await app.inject({ method: 'POST', url: '/api/auth/login', payload: { email: 'reader@example.com', password: 'password' } })
const headers = { cookie: String(login.headers['set-cookie']).split(';')[0]! }
await app.inject({ url: '/direct', headers })

const urls = ['/direct', '/reply-view', ...(peer ? ['/fastify-view'] : [])]
const bodies = await Promise.all(urls.map(async (url) => (await app.inject({ url, headers })).body))
for (const [i, body] of bodies.entries()) {
  if (!body.includes('Person 49 &lt;49&gt;') || body.trim() !== bodies[0]!.trim()) throw new Error(`${urls[i]} rendered something else:\n${body.slice(0, 300)}`)
}

async function cpuOf(url: string): Promise<number> {
  const start = process.cpuUsage()
  const answer = await app.inject({ url, headers })
  const used = process.cpuUsage(start)
  if (answer.headers['set-cookie']) throw new Error(`${url} set a cookie: the measurement would include sealing it`)
  return used.user + used.system
}

async function round(n: number): Promise<Map<string, number>> {
  const sums = new Map<string, number>(urls.map((u) => [u, 0]))
  for (let i = 0; i < n; i++) {
    // Each request starts with a different route: none is always the first after a pause.
    for (let j = 0; j < urls.length; j++) {
      const url = urls[(i + j) % urls.length]!
      sums.set(url, sums.get(url)! + await cpuOf(url))
    }
  }
  return new Map([...sums].map(([url, sum]) => [url, sum / n]))
}

await round(1000)
const results = new Map<string, number[]>(urls.map((u) => [u, []]))
for (let r = 0; r < Number(rounds); r++) {
  for (const [url, mean] of await round(Number(perRound))) results.get(url)!.push(mean)
}
const base = median(results.get('/direct')!)
console.log(`Node ${process.version}; ${perRound} requests per route per round, ${rounds} rounds; the same 50-row view (identical HTML)`)
for (const url of urls) {
  const m = median(results.get(url)!)
  console.log(`${url.padEnd(14)} ${m.toFixed(1).padStart(6)} µs CPU/request  (${(m / base).toFixed(2)}x direct; rounds ${results.get(url)!.map((v) => v.toFixed(1)).join(', ')})`)
}
// The render alone, no HTTP: the project's compiled view called directly, and @fastify/view's
// instance render (fastify.view(name, data) under its propertyName), alternating in blocks.
const eta = new Eta({ views: PROJECT_ROOT, autoEscape: true, escapeFunction: escapeHtml, cache: true })
const compiled = compiledViews(eta, PROJECT_ROOT, true)
const renders: Record<string, () => Promise<unknown> | unknown> = {
  'compiled view': () => compiled(VIEW).call(eta, data, {}),
  ...(peerRender ? { '@fastify/view': () => peerRender!('bench/tools/view-list.eta', data) } : {}),
}
const renderCpu = new Map<string, number[]>(Object.keys(renders).map((k) => [k, []]))
for (let r = 0; r < Number(rounds) + 1; r++) {
  for (const [name, fn] of Object.entries(renders)) {
    const start = process.cpuUsage()
    for (let i = 0; i < 5000; i++) await fn()
    const used = process.cpuUsage(start)
    if (r > 0) renderCpu.get(name)!.push((used.user + used.system) / 5000)
  }
}
const renderBase = median(renderCpu.get('compiled view')!)
for (const [name, values] of renderCpu) {
  console.log(`render only: ${name.padEnd(14)} ${median(values).toFixed(1).padStart(6)} µs CPU/render  (${(median(values) / renderBase).toFixed(2)}x; rounds ${values.map((v) => v.toFixed(1)).join(', ')})`)
}
if (!peer) console.log('@fastify/view is not installed: set FASTIFY_VIEW to its folder (npm install @fastify/view in a scratch folder) to add its row')
await app.close()
