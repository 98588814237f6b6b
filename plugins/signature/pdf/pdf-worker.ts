// The body of a PDF worker thread (loaded by pdf-worker-entry.mjs): runs one task per message.
import { parentPort } from 'node:worker_threads'
import { pdfWorkerTasks, type PdfTaskRequest, type PdfTaskResponse } from './pdf-worker-tasks.ts'

if (!parentPort) throw new Error('pdf-worker.ts must run in a worker thread')
const port = parentPort

port.on('message', async (request: PdfTaskRequest) => {
  let response: PdfTaskResponse
  try {
    const run = pdfWorkerTasks[request.task] as (...args: unknown[]) => Promise<unknown>
    response = { id: request.id, ok: true, value: await run(...request.args) }
  } catch (error) {
    // An AppError's code and status must survive the trip: structured cloning keeps only the message.
    const { message, code, statusCode } = error as { message?: string; code?: string; statusCode?: number }
    response = { id: request.id, ok: false, error: { message: message ?? String(error), code, statusCode } }
  }
  port.postMessage(response)
})
