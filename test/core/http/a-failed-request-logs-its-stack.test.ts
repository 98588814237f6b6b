// With the deployed logger, a handler that throws leaves its error with the stack trace in the
// log (at `error`), next to the request's one access line, and the client sees no stack.
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import t from 'tap'
import { loggerOptions } from '../../../core/http/access-log.ts'
import { buildApp } from '../../../host-app/app.ts'
import { isolatedEnv } from '../../helpers/test-env.ts'
import { logLinesUntil } from '../../helpers/log-file.ts'

function failsDeepInside(): never {
  throw new Error('disk on fire')
}

t.test('a 500 logs the error with its stack once, and one access line', async (t) => {
  const dir = await mkdtemp(path.join(tmpdir(), 'error-log-'))
  const file = path.join(dir, 'app.log')
  const { env, cleanup } = await isolatedEnv()
  const app = await buildApp({ env, logger: loggerOptions('info', file) })
  t.teardown(async () => {
    await app.close()
    await cleanup()
    await rm(dir, { recursive: true, force: true })
  })
  app.get('/api/test-failure', async () => failsDeepInside())
  await app.ready()

  const response = await app.inject({ url: '/api/test-failure' })
  t.equal(response.statusCode, 500)
  t.notMatch(response.body, /failsDeepInside|disk on fire/, 'the client gets no stack and no message')

  const lines = await logLinesUntil(file, (all) => all.some((l) => l.msg === 'request') && all.some((l) => l.msg === 'request failed'))
  const failed = lines.filter((l) => l.msg === 'request failed')
  t.equal(failed.length, 1)
  t.equal(failed[0]!.level, 50, 'at error')
  t.equal(failed[0]!.err?.message, 'disk on fire')
  t.match(failed[0]!.err?.stack, /failsDeepInside/, 'the stack names the function that threw')
  const access = lines.filter((l) => l.msg === 'request')
  t.equal(access.length, 1)
  t.match(access[0], { route: '/api/test-failure', status: 500 })
  t.equal(access[0]!.reqId, failed[0]!.reqId, 'both lines carry the same request id')
})
