import path from 'node:path'
import { fileURLToPath } from 'node:url'
import type { FastifyInstance } from 'fastify'
import { assertPermission } from '../../../core/access/assert-permission.ts'
import { requireUser } from '../../../core/auth/require-user.ts'
import type { NavigationItem, PanelContext } from '../../../core/panel/panel-plugin.ts'
import { DOCUMENTS_PERMISSION, SESSION_PERMISSION, TEMPLATES_CREATE_PERMISSION, TEMPLATES_DELETE_PERMISSION } from '../permissions.ts'
import { signatureAssetsUrl } from '../public-assets.ts'
import { DOCUMENT_ROUTE, SESSION_ROUTE } from '../route-names.ts'
import { FIELD_TYPES } from '../public/document-editor-model.js'

const VIEW = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'views', 'document-new.eta')

export function newDocumentNavigation(panel: PanelContext): NavigationItem {
  return { label: 'New document', url: `/${panel.path}/documents/new`, permission: DOCUMENTS_PERMISSION.create, group: 'Signatures' }
}

/** Where Send leads: the session's page when this panel has the sessions pages, else the panel's own one's path. */
function sessionPageUrl(panel: PanelContext): string {
  try {
    return panel.url(SESSION_ROUTE.show, { id: '__id__' })
  } catch {
    return `/${panel.path}/sessions/__id__`
  }
}

/**
 * "New document" (SignaturePlugin page 'documents'): upload a PDF, add signers (people with an
 * account, or anyone by name and e-mail), place their fields, send. The page only assembles the
 * calls of the JSON API (POST /api/documents, POST /api/signing-sessions), which decide; shown in
 * the navigation and answered only to those whom decide() grants documents:create.
 */
export function mountNewDocumentPage(panel: PanelContext, app: FastifyInstance): void {
  app.get('/documents/new', { config: { name: DOCUMENT_ROUTE.new } }, async (request, reply) => {
    const user = requireUser(request.user)
    assertPermission(app.policy, user, DOCUMENTS_PERMISSION.create)
    const people = (await app.users.list({ page: 1, perPage: 500, sort: { field: 'name', direction: 'asc' } })).data
      .map((u) => ({ id: u.id, name: u.name, email: u.email }))
    const config = {
      uploadUrl: '/api/documents',
      pageUrl: '/api/documents/__id__/pages/__page__',
      sessionsUrl: '/api/signing-sessions',
      sessionUrl: sessionPageUrl(panel),
      // Saved templates (issue 38, item 6): listed for whoever may start a session; saved by who may create templates.
      templatesUrl: app.policy.can(user.role, SESSION_PERMISSION.create) ? '/api/document-templates' : null,
      templateUrl: app.policy.can(user.role, TEMPLATES_CREATE_PERMISSION) ? '/api/documents/__id__/template' : null,
      // Rename and Delete of a saved template, each shown only where decide() grants the API's own permission.
      savedTemplateUrl: '/api/document-templates/__key__',
      mayRenameTemplates: app.policy.can(user.role, TEMPLATES_CREATE_PERMISSION),
      mayDeleteTemplates: app.policy.can(user.role, TEMPLATES_DELETE_PERMISSION),
      people,
    }
    reply.header('cache-control', 'private, no-store')
    return reply.page(VIEW, { config, assets: signatureAssetsUrl(panel.path), fieldTypes: FIELD_TYPES }, { title: 'New document' })
  })
}
