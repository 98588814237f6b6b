// The baseline of row 1'': bare Fastify in a process of its own, as a user would run it, serving
// the bytes it is given at GET /api/users: no session, no permission check, no security headers,
// no access log. Started with npm start's node options; prints its address when listening.
import { readFileSync } from 'node:fs'
import Fastify from 'fastify'

const body = readFileSync(process.argv[2])
const app = Fastify({ logger: false })
app.get('/api/users', (_request, reply) => { reply.type('application/json; charset=utf-8').send(body) })
const address = await app.listen({ host: '127.0.0.1', port: 0 })
process.stdout.write(`${address}\n`)
for (const signal of ['SIGTERM', 'SIGINT']) process.once(signal, () => app.close().then(() => process.exit(0)))
