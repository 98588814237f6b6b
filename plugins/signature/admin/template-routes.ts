import { createReadStream } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import type { FastifyInstance } from 'fastify'
import { z } from 'zod'
import { assertPermission } from '../../../core/access/assert-permission.ts'
import { parseInput } from '../../../core/http/validate.ts'
import type { PanelContext } from '../../../core/panel/panel-plugin.ts'
import type { PdfTemplateRegistry } from '../registry/pdf-template-registry.ts'
import { requireTemplate } from '../registry/require-template.ts'
import { TEMPLATES_PERMISSION } from '../permissions.ts'
import { TEMPLATES_ROUTE } from '../route-names.ts'
import { templateList } from './template-list.ts'

const LIST_VIEW = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'views', 'template-list.eta')

export { TEMPLATES_PERMISSION }
import { SESSION_PERMISSION } from '../permissions.ts'
export const ROUTE = TEMPLATES_ROUTE

const keyParams = z.strictObject({ key: z.string().min(1).max(120) })

/** The admin's template list and sample PDFs; every handler re-checks the permission. */
export function mountTemplateRoutes(panel: PanelContext, app: FastifyInstance, registry: () => PdfTemplateRegistry): void {
  app.get('/signature-templates', { config: { name: ROUTE.index } }, async (request, reply) => {
    assertPermission(app.policy, request.user, TEMPLATES_PERMISSION)
    const rows = templateList(await registry().fresh(), {
      sample: (key) => panel.url(ROUTE.sample, { key }),
      designer: (key) => { try { return panel.url(ROUTE.designer, { templateKey: key }) } catch { return null } },
    })
    if (request.headers.accept?.includes('application/json')) return { data: rows }
    const send = app.signature.links.sendForSignature
    const sendUrl = send && app.policy.can(request.user?.role, SESSION_PERMISSION.create) ? (key: string) => send({ template: key }) : null
    return reply.page(LIST_VIEW, { rows, sendUrl }, { title: 'Signature templates' })
  })

  app.get('/signature-templates/:key/sample.pdf', { config: { name: ROUTE.sample } }, async (request, reply) => {
    assertPermission(app.policy, request.user, TEMPLATES_PERMISSION)
    const { key } = parseInput(keyParams, request.params, 'params')
    const file = await requireTemplate(await registry().fresh(), key).renderSample()
    return reply
      .type('application/pdf')
      .header('content-disposition', `inline; filename="${key}-sample.pdf"`)
      .header('cache-control', 'private, no-cache')
      .send(createReadStream(file))
  })
}
