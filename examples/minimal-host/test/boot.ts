// Boots the example host on a temporary storage folder, closed and removed on teardown.
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import type { FastifyInstance } from 'fastify'
import { buildMinimalHost } from '../app.ts'

export async function bootMinimalHost(t: { teardown(fn: () => unknown): void }): Promise<FastifyInstance> {
  const storagePath = await mkdtemp(path.join(tmpdir(), 'minimal-host-'))
  const app = await buildMinimalHost({ storagePath })
  t.teardown(async () => {
    await app.close()
    await rm(storagePath, { recursive: true, force: true })
  })
  await app.ready()
  return app
}
