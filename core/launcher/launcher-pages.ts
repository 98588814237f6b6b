import path from 'node:path'
import { fileURLToPath } from 'node:url'
import type { FastifyInstance } from 'fastify'
import { navigate } from '../views/htmx.ts'
import { loginUrl } from '../views/safe-next.ts'
import { modulesFor, type LauncherModule } from './define-modules.ts'

const VIEW = path.join(path.dirname(fileURLToPath(import.meta.url)), 'views', 'dashboard.eta')

/**
 * GET /dashboard, the launcher, and GET / which leads there. The modules a role lacks are
 * dropped here, so they are in no HTML, JSON or script. The other modules have no pages yet:
 * their links reach the application's 404 page.
 */
export async function launcherPages(app: FastifyInstance, options: { modules: LauncherModule[] }) {
  app.get('/', async (request, reply) => navigate(request, reply, request.user ? '/dashboard' : '/login', 302))

  app.get('/dashboard', async (request, reply) => {
    if (!request.user) return navigate(request, reply, loginUrl('/dashboard'))
    const { tiles, dock } = modulesFor(app.policy, request.user.role, options.modules)
    // Only the widgets this user may see are computed; one that fails is logged and says so alone.
    const widgets = app.hasDecorator('dashboardWidgets')
      ? await app.dashboardWidgets.shownTo(app.policy, request.user, (key, error) => request.log.error({ err: error, widget: key }, 'a dashboard widget could not be computed'))
      : []
    return reply.page(VIEW, { tiles, dock, widgets }, { title: 'Dashboard' })
  })
}
