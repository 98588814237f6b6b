import type { FastifyInstance } from 'fastify'

/**
 * A pass every instance runs at boot (not awaited: it must not hold the boot up) and then every
 * `everyMs` (0: at boot only). One at a time per instance. The app's close aborts the pass in
 * progress (it stops at its next step, so a long pass cannot hold a shutdown past its deadline)
 * and waits for it. Answers `run`, which joins the pass in progress instead of starting a second.
 */
export function backgroundPass<T>(app: FastifyInstance, options: { everyMs: number; run: (signal: AbortSignal) => Promise<T>; onError: (error: unknown) => void }): () => Promise<T> {
  const closing = new AbortController()
  let running: Promise<T> | null = null
  const run = () => (running ??= options.run(closing.signal).finally(() => { running = null }))
  const pass = () => { run().catch(options.onError) }
  let timer: NodeJS.Timeout | null = null
  app.addHook('onReady', async () => {
    pass()
    if (options.everyMs > 0) timer = setInterval(pass, options.everyMs).unref()
  })
  app.addHook('onClose', async () => {
    if (timer) clearInterval(timer)
    closing.abort()
    await running?.catch(() => undefined)
  })
  return run
}
