// Why not piscina (issue 16, measured 2026-11-23 on this 2-core machine, piscina 5.3.2, pool size 1,
// 3 x A-B-B-A rounds, medians): an adapter giving piscina our contract passed test/core/workers/*
// and the PDF-pool tests unchanged, but it was not simpler in what matters and slower on small tasks.
// - Echo task: 53 us of CPU per task here vs 149 us; p50 latency 0.028 ms vs 0.091 ms.
// - normalizePdf on 10 pages: 3.7 vs 4.5 ms CPU, p50 2.0 vs 3.2 ms: within the noise of a machine
//   shared with other jobs (load 15-23), so no difference either way.
// - It still needed the TypeScript bootstrap, the error serialization (structured clone drops
//   `code` and `statusCode`), its own "task started" message (piscina's AbortSignal counts queue
//   time, ours counts run time), its own queue bound (piscina lets a starting worker take one more
//   task) and a mapping of its OOM, abort and queue errors; result transfer (Transfer) was lost,
//   since piscina moves only a top-level buffer. It saved about 90 lines and added a dependency with
//   an optional native module (@napi-rs/nice, for what setPriority does below in worker-bootstrap).
import { availableParallelism } from 'node:os'
import { performance } from 'node:perf_hooks'
import { Worker, type ResourceLimits, type TransferListItem } from 'node:worker_threads'
import { AppError, ERR_TASK_LIMIT, ERR_UNAVAILABLE } from '../http/errors.ts'
import type { TaskReply, TaskRequest, WorkerReady } from './task-protocol.ts'

export interface WorkerPoolOptions {
  /** The worker module: it calls serveTasks({...}) from task-server.ts. */
  module: URL
  /** Defaults to one less than the cores (at least one), so the event loop keeps a core. */
  size?: number
  /** Tasks waiting beyond this are refused with 503 instead of piling up. */
  maxQueue?: number
  /** The error for a full queue, when a caller has a more specific stable code than ERR_UNAVAILABLE. */
  queueFullError?: () => Error
  /**
   * A task still running after this long has its worker terminated (the only way to stop
   * synchronous work) and replaced; the task fails with limitError('time'). 0: no limit.
   */
  taskTimeoutMs?: number
  /** V8 heap limits of each worker; one that runs out is replaced and its task fails with limitError('memory'). */
  resourceLimits?: ResourceLimits
  /** The error for a task stopped by a limit (default 422 ERR_TASK_LIMIT). */
  limitError?: (kind: 'time' | 'memory') => Error
  /** Handed to the worker module as workerData.options (settings such as decoding limits). */
  workerOptions?: unknown
  /**
   * A worker idle this long is terminated; the next task starts a new one. A PDF or mupdf worker
   * holds 50-90 MiB that a collection in it never returns, and most of the time none is needed;
   * starting one again costs a few hundred ms. 0: workers are kept until close().
   */
  idleTimeoutMs?: number
  /**
   * Made once, when the first task arrives, and handed to every worker as workerData.shared: for
   * what is costly to make and cheap to share across threads, such as a compiled
   * WebAssembly.Module (a worker would otherwise compile its own each time it starts). A failure
   * fails the waiting tasks; the next task tries again.
   */
  prepareShared?: () => Promise<unknown>
  /** Told when each task ends: its name, seconds from its hand-over to a worker, and whether it succeeded (metrics). */
  onTaskSettled?: (task: string, seconds: number, ok: boolean) => void
  /**
   * The workers' nice value (Linux: per thread; default 10, see worker-bootstrap.mjs). A pool of
   * work nobody waits for urgently (anonymous verification) runs at 19, so on a full machine the
   * CPU goes to the pools people wait on (signing).
   */
  nice?: number
}

const BOOTSTRAP = new URL('./worker-bootstrap.mjs', import.meta.url)

interface Pending {
  request: TaskRequest
  transfer: TransferListItem[]
  resolve: (value: unknown) => void
  reject: (error: unknown) => void
  /** performance.now() when a worker was handed the task. */
  started?: number
}

interface Slot {
  worker: Worker
  busy?: Pending
  /** Set once the worker has loaded its module; a task's time limit starts then. */
  ready?: boolean
  timer?: NodeJS.Timeout
  idleTimer?: NodeJS.Timeout
}

/**
 * A small fixed pool of worker threads for CPU-heavy work (rasterizing, signing), so the event
 * loop keeps answering. Workers start on first use; one that crashes, runs past the task time
 * limit or out of its heap fails only its own task and is replaced, so the pool keeps its size and
 * the memory the task took goes with the terminated thread. Errors keep their stable code and
 * status across the thread boundary.
 */
export class WorkerPool {
  readonly #options: Required<Omit<WorkerPoolOptions, 'prepareShared'>>
  readonly #prepareShared: (() => Promise<unknown>) | undefined
  #shared: { value: unknown } | undefined
  #preparing: Promise<void> | undefined
  /** warm() was called while the shared data was being made: start a worker once it is. */
  #warmWhenPrepared = false
  readonly #slots: Slot[] = []
  readonly #queue: Pending[] = []
  #nextId = 1
  #closed = false

  constructor({ prepareShared, ...options }: WorkerPoolOptions) {
    this.#prepareShared = prepareShared
    this.#options = {
      size: Math.max(1, availableParallelism() - 1),
      maxQueue: 1000,
      queueFullError: () => ERR_UNAVAILABLE('Too much work queued; try again shortly'),
      taskTimeoutMs: 0,
      resourceLimits: {},
      limitError: (kind) => ERR_TASK_LIMIT(kind === 'time' ? 'The work took longer than its time limit' : 'The work needed more memory than its limit'),
      workerOptions: undefined,
      idleTimeoutMs: 0,
      onTaskSettled: () => {},
      nice: 10,
      ...options,
    }
  }

  run<T>(task: string, payload: unknown, transfer: TransferListItem[] = []): Promise<T> {
    if (this.#closed) return Promise.reject(ERR_UNAVAILABLE('The worker pool is closed'))
    if (this.#queue.length >= this.#options.maxQueue) return Promise.reject(this.#options.queueFullError())
    return new Promise<T>((resolve, reject) => {
      this.#queue.push({ request: { id: this.#nextId++, task, payload }, transfer, resolve: resolve as (v: unknown) => void, reject })
      if (this.#prepareShared && !this.#shared) this.#prepare()
      else this.#dispatch()
    })
  }

  #prepare() {
    this.#preparing ??= this.#prepareShared!().then(
      (value) => {
        this.#shared = { value }
        this.#preparing = undefined
        if (this.#closed) return
        if (this.#warmWhenPrepared) this.warm()
        this.#dispatch()
      },
      (error) => {
        this.#preparing = undefined
        this.#warmWhenPrepared = false
        for (const pending of this.#queue.splice(0)) pending.reject(error)
      },
    )
  }

  /**
   * Starts a worker now when none is running (after making the shared data), so that a task
   * expected soon finds its module loaded: a caller that knows work is coming (the designer page,
   * whose browser asks for page images next) overlaps the thread's start with what comes before.
   * The worker retires after idleTimeoutMs like any idle one. Nothing when the pool is closed or a
   * worker is up; a failure to prepare is left to the next task to meet.
   */
  warm(): void {
    if (this.#closed || this.#slots.length > 0) return
    if (this.#prepareShared && !this.#shared) {
      this.#warmWhenPrepared = true
      this.#prepare()
      return
    }
    this.#warmWhenPrepared = false
    this.#retireWhenIdle(this.#spawn())
  }

  get stats() {
    return { workers: this.#slots.length, busy: this.#slots.filter((s) => s.busy).length, queued: this.#queue.length }
  }

  async close(): Promise<void> {
    this.#closed = true
    for (const pending of this.#queue.splice(0)) pending.reject(ERR_UNAVAILABLE('The worker pool is closed'))
    await Promise.all(this.#slots.splice(0).map((slot) => { clearTimeout(slot.idleTimer); return slot.worker.terminate() }))
  }

  #dispatch() {
    while (this.#queue.length > 0) {
      let slot = this.#slots.find((s) => !s.busy)
      if (!slot && this.#slots.length < this.#options.size) slot = this.#spawn()
      if (!slot) return
      const pending = this.#queue.shift()!
      clearTimeout(slot.idleTimer)
      slot.busy = pending
      // A busy worker keeps the process alive (its answer is awaited); an idle one does not.
      slot.worker.ref()
      pending.started = performance.now()
      slot.worker.postMessage(pending.request, pending.transfer)
      if (slot.ready) this.#startClock(slot)
    }
  }

  #retireWhenIdle(slot: Slot) {
    if (this.#options.idleTimeoutMs <= 0) return
    slot.idleTimer = setTimeout(() => {
      if (slot.busy) return
      const index = this.#slots.indexOf(slot)
      if (index >= 0) this.#slots.splice(index, 1)
      void slot.worker.terminate()
    }, this.#options.idleTimeoutMs)
    // An idle pool never keeps the process alive.
    slot.idleTimer.unref()
  }

  #startClock(slot: Slot) {
    if (this.#options.taskTimeoutMs > 0 && slot.busy) slot.timer = setTimeout(() => this.#stop(slot, 'time'), this.#options.taskTimeoutMs)
  }

  /** Fails the slot's task with a limit error, then terminates and forgets its worker. */
  #stop(slot: Slot, kind: 'time' | 'memory') {
    const index = this.#slots.indexOf(slot)
    if (index >= 0) this.#slots.splice(index, 1)
    clearTimeout(slot.timer)
    const pending = slot.busy
    slot.busy = undefined
    if (pending) this.#settled(pending, false)
    pending?.reject(this.#options.limitError(kind))
    void slot.worker.terminate()
    if (!this.#closed) this.#dispatch()
  }

  #settled(pending: Pending, ok: boolean) {
    if (pending.started !== undefined) this.#options.onTaskSettled(pending.request.task, (performance.now() - pending.started) / 1000, ok)
  }

  #spawn(): Slot {
    const worker = new Worker(BOOTSTRAP, {
      workerData: { workerModule: this.#options.module.href, options: this.#options.workerOptions, shared: this.#shared?.value, nice: this.#options.nice },
      resourceLimits: this.#options.resourceLimits,
    })
    const slot: Slot = { worker }
    worker.unref()
    worker.on('message', (reply: TaskReply | WorkerReady) => {
      if ('ready' in reply) {
        slot.ready = true
        return this.#startClock(slot)
      }
      const pending = slot.busy
      if (!pending || pending.request.id !== reply.id) return
      slot.busy = undefined
      clearTimeout(slot.timer)
      worker.unref()
      this.#retireWhenIdle(slot)
      this.#settled(pending, reply.ok)
      if (reply.ok) pending.resolve(reply.value)
      else pending.reject(reply.error.code ? new AppError(reply.error.code, reply.error.statusCode ?? 500, reply.error.message) : new Error(reply.error.message))
      this.#dispatch()
    })
    const fail = (error: unknown) => {
      clearTimeout(slot.idleTimer)
      if ((error as { code?: unknown })?.code === 'ERR_WORKER_OUT_OF_MEMORY') return this.#stop(slot, 'memory')
      clearTimeout(slot.timer)
      const index = this.#slots.indexOf(slot)
      if (index >= 0) this.#slots.splice(index, 1)
      if (slot.busy) this.#settled(slot.busy, false)
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
