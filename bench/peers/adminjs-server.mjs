// The peer of the People rows: AdminJS 7 on Fastify 5 as its documentation sets it up — a
// session cookie (@fastify/session, its default in-memory store), and a `users` resource over
// @adminjs/sql reading the very table the app seeded on the same PostgreSQL database.
// Started by bench/sections/peers-http.ts as a process of its own, like `npm start`.
// Plain JavaScript: its packages live in bench/peers/node_modules, which the app's typecheck
// never sees. Env: PORT, DATABASE_URL (a database holding the app's `users` table), COOKIE_SECRET.
import AdminJSFastify from '@adminjs/fastify'
import Adapter, { Database, Resource } from '@adminjs/sql'
import AdminJS from 'adminjs'
import Fastify from 'fastify'

const { PORT, DATABASE_URL, COOKIE_SECRET } = process.env
if (!PORT || !DATABASE_URL || !COOKIE_SECRET) throw new Error('PORT, DATABASE_URL and COOKIE_SECRET are required')

// Signs in with the demo admin's address; the password is not the app's (no scrypt here), which
// only affects the login, never the measured requests.
const ADMIN = { email: 'admin@example.com', password: 'password' }

AdminJS.registerAdapter({ Database, Resource })
const url = new URL(DATABASE_URL)
const db = await new Adapter('postgresql', { connectionString: DATABASE_URL, database: url.pathname.slice(1) }).init()

const admin = new AdminJS({
  rootPath: '/admin',
  resources: [{
    resource: db.table('users'),
    options: {
      // The columns our People table shows; the hash never leaves either server.
      listProperties: ['id', 'name', 'email', 'role'],
      properties: { password_hash: { isVisible: false } },
    },
  }],
})

const app = Fastify()
await AdminJSFastify.buildAuthenticatedRouter(admin, {
  authenticate: async (email, password) => (email === ADMIN.email && password === ADMIN.password ? { email } : null),
  cookieName: 'adminjs',
  cookiePassword: COOKIE_SECRET,
}, app, { secret: COOKIE_SECRET, saveUninitialized: false, cookie: { secure: false, httpOnly: true } })

await app.listen({ host: '127.0.0.1', port: Number(PORT) })
process.once('SIGTERM', () => { app.close().then(() => process.exit(0), () => process.exit(1)) })
