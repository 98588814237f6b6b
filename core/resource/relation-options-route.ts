import type { FastifyInstance } from 'fastify'
import { z } from 'zod'
import type { Policy } from '../access/policy.ts'
import { requireUser } from '../auth/require-user.ts'
import { ERR_ACCESS_DENIED, ERR_NOT_FOUND } from '../http/errors.ts'
import { parseInput } from '../http/validate.ts'
import { VIEW_FILES } from '../views/view-files.ts'
import type { Resource, ResourceRecord } from './define-resource.ts'
import { relatedOptions, relationshipFields } from './relationship-field.ts'

const query = z.object({ search: z.string().max(200).optional() }).catchall(z.union([z.string().max(200), z.array(z.string().max(200))]))

/**
 * The search of a relationship select (GET <base>/fields/:field/options?search=..): answers the
 * select's options for this actor. Only someone filling in this resource's form asks for it (its
 * create or edit permission), and the options are the related resource's, as far as its view
 * permission and rule let the actor see them.
 */
export function mountRelationOptionsRoute<R extends ResourceRecord>(resource: Resource<R>, app: FastifyInstance, name: (action: string) => string) {
  const policy: Policy = app.policy
  const fields = new Map(relationshipFields(resource).map((field) => [field.key as string, field]))
  const writers = [resource.actions.create?.permission, resource.actions.edit?.permission].filter((p): p is string => p !== undefined)
  app.get<{ Params: { field: string } }>(`/${resource.slug}/fields/:field/options`, { config: { name: name('field-options') } }, async (request, reply) => {
    const actor = requireUser(request.user)
    if (!writers.some((permission) => policy.can(actor.role, permission))) throw ERR_ACCESS_DENIED('You may not fill in this form')
    const field = fields.get(request.params.field)
    if (!field || field.readOnly === true) throw ERR_NOT_FOUND(`No field ${request.params.field}`)
    const params = parseInput(query, request.query ?? {}, 'query')
    const current = params[field.key]
    const options = await relatedOptions(policy, field, actor, typeof current === 'string' ? current : undefined, params.search)
    return reply.fragment(VIEW_FILES.fieldOptions, { options, value: typeof current === 'string' ? current : '', blank: true })
  })
}
