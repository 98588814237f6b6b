import { availableParallelism } from 'node:os'
import { Worker, type TransferListItem } from 'node:worker_threads'
import { AppError, ERR_UNAVAILABLE } from '../http/errors.ts'
import type { TaskReply, TaskRequest } from './task-protocol.ts'

export interface WorkerPoolOptions {
  /** The worker module: it calls serveTasks({...}) from task-server.ts. */
  module: URL
  /** Defaults to one less than the cores (at least one), so the event loop keeps a core. */
  size?: number
  /** Tasks waiting beyond this are refused with 503 instead of piling up. */
  maxQueue?: number
  /** The error for a full queue, when a caller has a more specific stable code than ERR_UNAVAILABLE. */
  queueFullError?: () => Error
}

const BOOTSTRAP = new URL('./worker-bootstrap.mjs', import.meta.url)

interface Pending {
  request: TaskRequest
  transfer: TransferListItem[]
  resolve: (value: unknown) => void
  reject: (error: unknown) => void
}

interface Slot {
  worker: Worker
  busy?: Pending
}

/**
 * A small fixed pool of worker threads for CPU-heavy work (rasterizing, signing), so the event
 * loop keeps answering. Workers start on first use; one that crashes fails only its own task and
 * is replaced. Errors keep their stable code and status across the thread boundary.
 */
export class WorkerPool {
  readonly #options: Required<WorkerPoolOptions>
  readonly #slots: Slot[] = []
  readonly #queue: Pending[] = []
  #nextId = 1
  #closed = false

  constructor(options: WorkerPoolOptions) {
    this.#options = { size: Math.max(1, availableParallelism() - 1), maxQueue: 1000, queueFullError: () => ERR_UNAVAILABLE('Too much work queued; try again shortly'), ...options }
  }

  run<T>(task: string, payload: unknown, transfer: TransferListItem[] = []): Promise<T> {
    if (this.#closed) return Promise.reject(ERR_UNAVAILABLE('The worker pool is closed'))
    if (this.#queue.length >= this.#options.maxQueue) return Promise.reject(this.#options.queueFullError())
    return new Promise<T>((resolve, reject) => {
      this.#queue.push({ request: { id: this.#nextId++, task, payload }, transfer, resolve: resolve as (v: unknown) => void, reject })
      this.#dispatch()
    })
  }

  get stats() {
    return { workers: this.#slots.length, busy: this.#slots.filter((s) => s.busy).length, queued: this.#queue.length }
  }

  async close(): Promise<void> {
    this.#closed = true
    for (const pending of this.#queue.splice(0)) pending.reject(ERR_UNAVAILABLE('The worker pool is closed'))
    await Promise.all(this.#slots.splice(0).map((slot) => slot.worker.terminate()))
  }

  #dispatch() {
    while (this.#queue.length > 0) {
      let slot = this.#slots.find((s) => !s.busy)
      if (!slot && this.#slots.length < this.#options.size) slot = this.#spawn()
      if (!slot) return
      const pending = this.#queue.shift()!
      slot.busy = pending
      // A busy worker keeps the process alive (its answer is awaited); an idle one does not.
      slot.worker.ref()
      slot.worker.postMessage(pending.request, pending.transfer)
    }
  }

  #spawn(): Slot {
    const worker = new Worker(BOOTSTRAP, { workerData: { workerModule: this.#options.module.href } })
    const slot: Slot = { worker }
    worker.unref()
    worker.on('message', (reply: TaskReply) => {
      const pending = slot.busy
      if (!pending || pending.request.id !== reply.id) return
      slot.busy = undefined
      worker.unref()
      if (reply.ok) pending.resolve(reply.value)
      else pending.reject(reply.error.code ? new AppError(reply.error.code, reply.error.statusCode ?? 500, reply.error.message) : new Error(reply.error.message))
      this.#dispatch()
    })
    const fail = (error: unknown) => {
      const index = this.#slots.indexOf(slot)
      if (index >= 0) this.#slots.splice(index, 1)
      slot.busy?.reject(error instanceof Error ? error : new Error(`worker exited (${String(error)})`))
      slot.busy = undefined
      if (!this.#closed) this.#dispatch()
    }
    worker.on('error', fail)
    worker.on('exit', (code) => fail(code))
    this.#slots.push(slot)
    return slot
  }
}
