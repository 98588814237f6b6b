// A small bounded pool of worker threads for the PDF engine. Parsing, drawing and signing a
// 100-page document holds a thread for tens of ms; in a worker that time is not taken from the
// event loop serving every other request.
import { availableParallelism } from 'node:os'
import { Worker } from 'node:worker_threads'
import { AppError } from '../../../core/http/errors.ts'
import { ERR_PDF_WORKERS_BUSY } from './errors.ts'
import type { PdfTaskName, PdfTaskRequest, PdfTaskResponse, PdfWorkerTasks } from './pdf-worker-tasks.ts'

export interface PdfWorkerPoolOptions {
  /** Worker threads; defaults to the cores left after the main thread, at most 4. */
  size?: number
  /** Tasks allowed to wait for a free worker; more are refused with ERR_PDF_WORKERS_BUSY (503). */
  maxQueue?: number
}

export interface PdfWorkerPool {
  run<K extends PdfTaskName>(task: K, ...args: Parameters<PdfWorkerTasks[K]>): ReturnType<PdfWorkerTasks[K]>
  close(): Promise<void>
}

interface PendingTask {
  request: PdfTaskRequest
  resolve: (value: unknown) => void
  reject: (error: unknown) => void
}

const WORKER_URL = new URL('./pdf-worker-entry.mjs', import.meta.url)

export function createPdfWorkerPool(options: PdfWorkerPoolOptions = {}): PdfWorkerPool {
  const size = Math.max(1, options.size ?? Math.min(4, availableParallelism() - 1))
  const maxQueue = options.maxQueue ?? 64
  const idle: Worker[] = []
  const busy = new Map<Worker, PendingTask>()
  const queue: PendingTask[] = []
  let nextId = 1
  let closed = false

  const spawn = () => {
    const worker = new Worker(WORKER_URL)
    worker.on('message', (response: PdfTaskResponse) => {
      const task = busy.get(worker)
      busy.delete(worker)
      if (task) settle(task, response)
      release(worker)
    })
    // A crashed worker fails only its own task; a fresh one takes its place.
    worker.on('error', (error) => {
      const task = busy.get(worker)
      busy.delete(worker)
      task?.reject(error)
    })
    worker.on('exit', () => {
      busy.get(worker)?.reject(new Error('The PDF worker exited'))
      busy.delete(worker)
      const at = idle.indexOf(worker)
      if (at >= 0) idle.splice(at, 1)
      if (!closed) release(spawn())
    })
    return worker
  }

  const release = (worker: Worker) => {
    const next = queue.shift()
    if (next) dispatch(worker, next)
    else idle.push(worker)
  }

  const dispatch = (worker: Worker, task: PendingTask) => {
    busy.set(worker, task)
    worker.postMessage(task.request)
  }

  for (let i = 0; i < size; i++) idle.push(spawn())

  return {
    run(task, ...args) {
      return new Promise((resolve, reject) => {
        if (closed) return reject(new Error('The PDF worker pool is closed'))
        const pending: PendingTask = { request: { id: nextId++, task, args }, resolve, reject }
        const worker = idle.pop()
        if (worker) return dispatch(worker, pending)
        if (queue.length >= maxQueue) return reject(ERR_PDF_WORKERS_BUSY())
        queue.push(pending)
      }) as never
    },
    async close() {
      closed = true
      for (const task of queue.splice(0)) task.reject(new Error('The PDF worker pool is closed'))
      await Promise.all([...idle, ...busy.keys()].map((worker) => worker.terminate()))
    },
  }
}

function settle(task: PendingTask, response: PdfTaskResponse): void {
  if (response.ok) return task.resolve(response.value)
  const { message, code, statusCode } = response.error
  task.reject(code && statusCode ? new AppError(code, statusCode, message) : new Error(message))
}
