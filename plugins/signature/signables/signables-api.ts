import type { FastifyInstance } from 'fastify'
import { z } from 'zod'
import type { Policy } from '../../../core/access/policy.ts'
import { ERR_UNAUTHENTICATED } from '../../../core/http/errors.ts'
import { parseInput } from '../../../core/http/validate.ts'
import type { SignableSource } from '../contracts/signable-source.ts'
import { ERR_TEMPLATE_NOT_FOUND } from '../errors.ts'
import type { PdfTemplateRegistry } from '../registry/pdf-template-registry.ts'
import { maySeeRecord } from './record-visibility.ts'
import { signatoriesOf } from './signatories.ts'

export { READ_ANY_SIGNABLE } from './record-visibility.ts'

export interface SignablesApiOptions {
  registry: PdfTemplateRegistry
  source: SignableSource
  policy: Policy
}

const paramsSchema = z.strictObject({ templateKey: z.string().min(1).max(120) })

/**
 * GET /api/signables/:templateKey -> { data: [{ id, title, signatories }] }: what the signed-in
 * user may sign, so the signer page and clients can find it. A user sees the records where they are
 * a signatory of some slot (their own time records, and the ones they must countersign); a role
 * with `signatures:read-any` (admin, through `signatures:*`) sees all of them.
 */
export async function signablesApi(app: FastifyInstance, { registry, source, policy }: SignablesApiOptions) {
  app.get('/api/signables/:templateKey', async (request) => {
    const user = request.user
    if (!user) throw ERR_UNAUTHENTICATED()
    const { templateKey } = parseInput(paramsSchema, request.params, 'params')
    // find(), not get(): the key comes from the URL.
    const template = registry.find(templateKey)
    if (!template) throw ERR_TEMPLATE_NOT_FOUND(`No PDF template is registered under the key ${JSON.stringify(templateKey)}`)
    const records = await source.forTemplate(templateKey)
    return {
      data: records
        .filter((record) => maySeeRecord(policy, template, record, user))
        .map((record) => ({ id: record.getSignableId(), title: record.getSignableTitle(), signatories: signatoriesOf(template, record) })),
    }
  })
}
