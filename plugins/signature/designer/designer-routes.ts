import path from 'node:path'
import { fileURLToPath } from 'node:url'
import type { FastifyInstance } from 'fastify'
import { z } from 'zod'
import { assertPermission } from '../../../core/access/assert-permission.ts'
import { parseInput } from '../../../core/http/validate.ts'
import type { PanelContext } from '../../../core/panel/panel-plugin.ts'
import { DESIGN_PERMISSION } from '../permissions.ts'
import { DESIGNER_ROUTE, TEMPLATES_ROUTE as ROUTE } from '../route-names.ts'
import type { RegisteredTemplate } from '../contracts/pdf-template.ts'
import { ERR_SLOT_NOT_FOUND } from '../errors.ts'
import { signatureAssetsUrl } from '../public-assets.ts'
import type { PdfTemplateRegistry } from '../registry/pdf-template-registry.ts'
import { requireTemplate } from '../registry/require-template.ts'
import { designerMeta, toDesignerSlot } from './designer-meta.ts'
import { pageSizesOf } from '../rendering/page-source.ts'
import { sendPageImage } from './send-page-image.ts'
import { parseSlotPlacement } from './slot-placement.ts'

const DESIGNER_VIEW = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'views', 'designer.eta')

const templateKey = z.string().min(1).max(120)
const templateParams = z.strictObject({ templateKey })
const pageParams = z.strictObject({ templateKey, n: z.coerce.number().int().min(1).max(100_000) })
const slotParams = z.strictObject({ templateKey, slotKey: z.string().min(1).max(120) })

/**
 * The placement designer: the page, its JSON (page sizes and slots in PDF points), page images and
 * saving one slot. Every handler checks `signature-templates:design` itself; the panel's gate and
 * CSRF check come from the panel's scope.
 */
export function mountDesignerRoutes(panel: PanelContext, app: FastifyInstance, registry: () => PdfTemplateRegistry): void {
  const services = () => app.signature
  // Fresh: a template saved, renamed or deleted on another instance is as it is now.
  const templateOf = async (key: string): Promise<RegisteredTemplate> => requireTemplate(await registry().fresh(), key)

  app.get('/signature-templates/:templateKey/design', { config: { name: DESIGNER_ROUTE.page } }, async (request, reply) => {
    assertPermission(app.policy, request.user, DESIGN_PERMISSION)
    const template = await templateOf(parseInput(templateParams, request.params, 'params').templateKey)
    const params = { templateKey: template.key() }
    // The browser asks for page sizes and images next: the rasterizer's worker (a thread, mupdf
    // instantiated) starts now, on its own thread, while the browser loads the page's scripts and
    // the sample PDF is made. Once the page has gone, so that it never waits on the start. Not the
    // first image itself: its sample's main-thread work (pdf-lib loaded and run) then held the
    // page's scripts back 150-480 ms and the first image came no sooner (bench/tools/page-image-cold.ts).
    reply.raw.once('finish', () => services().pageImages.warm())
    return reply.page(DESIGNER_VIEW, {
      template: { key: template.key(), label: template.label() },
      urls: {
        list: panel.url(ROUTE.index),
        meta: panel.url(DESIGNER_ROUTE.meta, params),
        // The client fills in the page number and the slot key.
        page: panel.url(DESIGNER_ROUTE.pageImage, { ...params, n: '__page__' }),
        save: panel.url(DESIGNER_ROUTE.save, { ...params, slotKey: '__slot__' }),
        assets: signatureAssetsUrl(panel.path),
      },
    }, { title: `Place slots: ${template.label()}` })
  })

  app.get('/signature-templates/:templateKey/design/meta', { config: { name: DESIGNER_ROUTE.meta } }, async (request, reply) => {
    assertPermission(app.policy, request.user, DESIGN_PERMISSION)
    const template = await templateOf(parseInput(templateParams, request.params, 'params').templateKey)
    reply.header('cache-control', 'private, no-store')
    return designerMeta(template, services())
  })

  app.get('/signature-templates/:templateKey/design/pages/:n', { config: { name: DESIGNER_ROUTE.pageImage } }, async (request, reply) => {
    assertPermission(app.policy, request.user, DESIGN_PERMISSION)
    const { templateKey: key, n } = parseInput(pageParams, request.params, 'params')
    return sendPageImage(request, reply, { template: await templateOf(key) }, n, services().pageImages)
  })

  app.post('/signature-templates/:templateKey/design/slots/:slotKey', { config: { name: DESIGNER_ROUTE.save } }, async (request) => {
    assertPermission(app.policy, request.user, DESIGN_PERMISSION)
    const { templateKey: key, slotKey } = parseInput(slotParams, request.params, 'params')
    const template = await templateOf(key)
    const slot = template.slots().find((s) => s.key === slotKey)
    if (!slot) throw ERR_SLOT_NOT_FOUND(`Template ${JSON.stringify(key)} has no slot ${JSON.stringify(slotKey)}`)
    const placement = parseSlotPlacement(request.body, await pageSizesOf({ template }, services().pageImages))
    const saved = await services().slots.upsert(template.key(), slot.key, placement)
    return toDesignerSlot(slot, saved, true)
  })
}
