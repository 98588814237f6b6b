import { loadAppEnv } from '../config/app.ts'
import { buildApp } from './app.ts'

const env = loadAppEnv()
const app = await buildApp({ logger: { level: env.LOG_LEVEL } })

let closing = false
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    if (closing) return
    closing = true
    app.log.info({ signal }, 'shutting down')
    app.close().then(() => process.exit(0), (error) => {
      app.log.error(error, 'error while shutting down')
      process.exit(1)
    })
  })
}

await app.listen({ host: env.HOST, port: env.PORT })
app.log.info(`Demo accounts: admin@example.com, manager@example.com, staff@example.com (password "password")`)
