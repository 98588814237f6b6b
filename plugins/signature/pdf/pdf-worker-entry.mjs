// Entry file of a PDF worker thread. On Node 20 a worker does not get tsx's module hooks from
// the parent (even with `--import tsx` in its execArgv a .ts entry fails with
// ERR_UNKNOWN_FILE_EXTENSION), so this plain-JavaScript entry registers tsx itself and then
// loads the TypeScript worker. tsx is a runtime dependency of the server already.
import { register } from 'tsx/esm/api'

register()
await import('./pdf-worker.ts')
