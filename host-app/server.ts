import { loadAppEnv } from '../config/app.ts'
import { loggerOptions } from '../core/index.ts'
import { buildApp } from './app.ts'

/** Longer than a page render or a signature takes, shorter than an orchestrator's kill grace (30 s). */
const SHUTDOWN_DEADLINE_MS = 20_000

const env = loadAppEnv()
const app = await buildApp({ logger: loggerOptions(env.LOG_LEVEL) })

let closing = false
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    if (closing) return
    closing = true
    app.log.info({ signal }, 'shutting down')
    // Closing waits for requests, workers, the browser and the database pool; if one of them never
    // lets go the process would linger holding its port. Give up after a deadline, saying so.
    setTimeout(() => {
      // What still holds the process (sockets, timers, workers, child processes), for whoever reads the log.
      app.log.error({ signal, afterMs: SHUTDOWN_DEADLINE_MS, pending: process.getActiveResourcesInfo() }, 'shutdown did not finish in time; exiting anyway')
      process.exit(1)
    }, SHUTDOWN_DEADLINE_MS).unref()
    // /readyz answers 503 from now on; the balancer sees it and stops sending before we close.
    app.readiness.shutDown()
    new Promise((resolve) => setTimeout(resolve, env.SHUTDOWN_DRAIN_MS)).then(() => app.close()).then(() => process.exit(0), (error) => {
      app.log.error(error, 'error while shutting down')
      process.exit(1)
    })
  })
}

await app.listen({ host: env.HOST, port: env.PORT })
app.log.info(`Demo accounts: admin@example.com, manager@example.com, staff@example.com (password "password")`)
