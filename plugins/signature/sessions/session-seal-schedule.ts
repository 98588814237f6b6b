// The seal retry (session-seal-retry.ts) at boot and every `sessions.seal_retry_every_ms`.
import type { FastifyInstance } from 'fastify'
import { backgroundPass } from '../background-pass.ts'
import type { SealRetryReport } from './session-seal-retry.ts'
import type { SigningSessionManager } from './signing-session-manager.ts'

export function scheduleSealRetry(app: FastifyInstance, sessions: Pick<SigningSessionManager, 'sealUnsealed'>, everyMs: number): () => Promise<SealRetryReport[]> {
  return backgroundPass(app, {
    everyMs,
    async run(signal) {
      const reports = await sessions.sealUnsealed(signal)
      const count = (outcome: SealRetryReport['outcome']) => reports.filter((r) => r.outcome === outcome).length
      if (reports.length) {
        const failed = reports.filter((r) => r.outcome === 'failed')
        app.log[failed.length ? 'warn' : 'info']({ event: 'seal-retry', sealed: count('sealed'), moved: count('moved'), failed: failed.length, errors: failed.slice(0, 5).map((r) => ({ session: r.sessionId, error: r.error })) },
          failed.length ? 'sealing of completed sessions failed for some; the next pass retries them' : 'completed sessions left at B-T were sealed')
      }
      return reports
    },
    onError: (error) => app.log.error({ err: error, event: 'seal-retry' }, 'the seal retry failed; it runs again at the next interval'),
  })
}
