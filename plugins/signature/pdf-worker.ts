// The body of a PDF worker thread, run by core/workers' pool: one task per message. It sits at
// the plugin's entry with the task table (pdf-worker-tasks.ts), which reaches into every layer.
import { workerData } from 'node:worker_threads'
import { serveTasks } from '../../core/workers/task-server.ts'
import { asPdfError } from './pdf/as-pdf-error.ts'
import { configurePdfLimits } from './pdf/pdf-limits.ts'
import { pdfDocumentTasks, pdfWorkerTasks } from './pdf-worker-tasks.ts'
import { configureTimestamps } from './timestamps/timestamp-source.ts'

configurePdfLimits(workerData?.options?.limits)
configureTimestamps(workerData?.options?.timestamps)

serveTasks(Object.fromEntries(Object.entries(pdfWorkerTasks).map(([name, run]) => {
  const call = (args: unknown[]) => (run as (...a: unknown[]) => unknown)(...args)
  // Only the tasks whose input is a document from outside turn a reader's stray error into a 422.
  return [name, (pdfDocumentTasks as readonly string[]).includes(name) ? (args: unknown[]) => asPdfError(() => call(args)) : call]
})))
