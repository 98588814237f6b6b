// npm run example: the example host on PORT (3001) with its files under STORAGE_PATH.
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { buildMinimalHost } from './app.ts'

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..')
const storagePath = process.env.STORAGE_PATH ?? path.join(ROOT, 'storage', 'minimal-host')
const app = await buildMinimalHost({ storagePath })
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => { app.close().then(() => process.exit(0), () => process.exit(1)) })
}
await app.listen({ host: process.env.HOST ?? '127.0.0.1', port: Number(process.env.PORT ?? 3001) })
console.log(`Office at http://localhost:${(app.server.address() as { port: number }).port}/office (files in ${storagePath})`)
console.log('Accounts (password "password"): accountant@example.com, clerk@example.com, customer@example.com')
