// The body of a PDF worker thread, run by core/workers' pool: one task per message.
import { serveTasks } from '../../../core/workers/task-server.ts'
import { pdfWorkerTasks } from './pdf-worker-tasks.ts'

serveTasks(Object.fromEntries(Object.entries(pdfWorkerTasks).map(([name, run]) => [
  name,
  (args: unknown[]) => (run as (...a: unknown[]) => unknown)(...args),
])))
