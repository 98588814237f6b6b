/** 'ok', or a word saying what is wrong ('unreachable', 'pending', 'shutting-down'). */
export type CheckResult = string
export type ReadinessCheck = () => CheckResult | Promise<CheckResult>

export interface ReadinessReport {
  ready: boolean
  checks: Record<string, CheckResult>
}

/**
 * Whether this instance can serve: every registered check answers 'ok' and the process is not
 * shutting down. Checks run at once, each bounded by its own timeout (databaseAnswers): the probe
 * answers within the slowest bound, whatever is down.
 */
export class Readiness {
  readonly #checks = new Map<string, ReadinessCheck>()
  #shuttingDown = false

  /** A check under `name` (a second one under the same name replaces the first). */
  add(name: string, check: ReadinessCheck): void {
    this.#checks.set(name, check)
  }

  /**
   * From now on /readyz answers 503, so a load balancer stops sending new requests; the server
   * still answers those already on their way. server.ts calls it when SIGTERM arrives, before it
   * waits SHUTDOWN_DRAIN_MS and closes.
   */
  shutDown(): void {
    this.#shuttingDown = true
  }

  get shuttingDown(): boolean {
    return this.#shuttingDown
  }

  async report(): Promise<ReadinessReport> {
    const names = [...this.#checks.keys()]
    const results = await Promise.all(names.map(async (name) => {
      try {
        return await this.#checks.get(name)!()
      } catch {
        return 'failed'
      }
    }))
    const checks: Record<string, CheckResult> = { lifecycle: this.#shuttingDown ? 'shutting-down' : 'ok' }
    names.forEach((name, i) => { checks[name] = results[i]! })
    return { ready: Object.values(checks).every((result) => result === 'ok'), checks }
  }
}
