import { promisify } from 'node:util'
import { gzip } from 'node:zlib'
import type { FastifyInstance } from 'fastify'
import { sourceFiles } from './source-files.ts'
import { tarArchive } from './tar-archive.ts'

const gzipAsync = promisify(gzip)

export const SOURCE_ARCHIVE_PATH = '/source.tar.gz'

/**
 * GET /source.tar.gz: the source of the program this server runs, for anyone who uses it over the
 * network (AGPL-3.0 §13). Built once, on the first request (gzip on the thread pool), and kept.
 */
export function registerSourceArchive(app: FastifyInstance, root: string): void {
  let archive: Promise<Buffer> | null = null
  app.get(SOURCE_ARCHIVE_PATH, async (request, reply) => {
    archive ??= sourceFiles(root).then((entries) => gzipAsync(tarArchive(entries)))
    const body = await archive.catch((error) => { archive = null; throw error })
    return reply
      .type('application/gzip')
      .header('content-disposition', 'attachment; filename="source.tar.gz"')
      .header('cache-control', 'public, max-age=3600')
      .send(body)
  })
}
