import { parentPort, type TransferListItem } from 'node:worker_threads'
import type { TaskReply, TaskRequest, WorkerReady } from './task-protocol.ts'

export type TaskHandler = (payload: never) => Promise<unknown> | unknown

/** A result that hands its buffers over instead of copying them. */
export class Transfer {
  constructor(readonly value: unknown, readonly transfer: TransferListItem[]) {}
}

/** Worker side of WorkerPool: answers each request with its handler's result or its error. */
export function serveTasks(handlers: Record<string, TaskHandler>): void {
  if (!parentPort) throw new Error('serveTasks() runs inside a worker thread')
  const port = parentPort
  port.on('message', async (request: TaskRequest) => {
    let reply: TaskReply
    let transfer: TransferListItem[] = []
    try {
      const handler = handlers[request.task]
      if (!handler || !Object.hasOwn(handlers, request.task)) throw new Error(`unknown task ${request.task}`)
      const value = await handler(request.payload as never)
      if (value instanceof Transfer) {
        transfer = value.transfer
        reply = { id: request.id, ok: true, value: value.value }
      } else reply = { id: request.id, ok: true, value }
    } catch (error) {
      const e = error as { message?: string; code?: string; statusCode?: number }
      reply = { id: request.id, ok: false, error: { message: e?.message ?? String(error), code: typeof e?.code === 'string' && e.code.startsWith('ERR_') ? e.code : undefined, statusCode: e?.statusCode } }
    }
    port.postMessage(reply, transfer)
  })
  port.postMessage({ ready: true } satisfies WorkerReady)
}
