/** At most `limit` tasks at once; the rest wait in arrival order. */
export class ConcurrencyLimit {
  #running = 0
  readonly #waiting: Array<() => void> = []

  constructor(readonly limit: number) {
    if (!Number.isInteger(limit) || limit < 1) throw new Error('limit must be a positive integer')
  }

  get running(): number { return this.#running }
  get waiting(): number { return this.#waiting.length }

  async run<T>(task: () => Promise<T>): Promise<T> {
    if (this.#running >= this.limit) await new Promise<void>((resolve) => this.#waiting.push(resolve))
    this.#running++
    try {
      return await task()
    } finally {
      this.#running--
      this.#waiting.shift()?.()
    }
  }
}
