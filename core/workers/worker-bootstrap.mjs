// Plain JavaScript on purpose: under Node 20 a worker's entry file is loaded before any
// --import hook, so a TypeScript worker module is reached through this file, which registers
// tsx (when the module is TypeScript) and then imports it.
import { setPriority } from 'node:os'
import { workerData } from 'node:worker_threads'

// Background work yields the CPU to the event loop: on Linux the nice value is per thread, so
// this lowers only this worker. On 2 cores, a worker signing at full speed otherwise competes
// with the thread answering every request (measured: API p99 2.8x idle while signing).
// A pool may ask for a lower priority still (workerData.nice), for work nobody waits on urgently.
try {
  setPriority(0, typeof workerData?.nice === 'number' ? workerData.nice : 10)
} catch {
  // Not permitted or not supported here: run at normal priority.
}

const target = workerData?.workerModule
if (typeof target !== 'string') throw new Error('worker-bootstrap needs workerData.workerModule')
if (target.endsWith('.ts')) {
  const { register } = await import('tsx/esm/api')
  register()
}
await import(target)
