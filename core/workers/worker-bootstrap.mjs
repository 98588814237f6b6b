// Plain JavaScript on purpose: under Node 20 a worker's entry file is loaded before any
// --import hook, so a TypeScript worker module is reached through this file, which registers
// tsx (when the module is TypeScript) and then imports it.
import { workerData } from 'node:worker_threads'

const target = workerData?.workerModule
if (typeof target !== 'string') throw new Error('worker-bootstrap needs workerData.workerModule')
if (target.endsWith('.ts')) {
  const { register } = await import('tsx/esm/api')
  register()
}
await import(target)
