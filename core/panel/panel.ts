import path from 'node:path'
import { fileURLToPath } from 'node:url'
import type { FastifyInstance, FastifyPluginAsync } from 'fastify'
import { verifyCsrf } from '../http/csrf.ts'
import { noPageAt } from '../http/no-page.ts'
import type { AnyResource, RelationList } from '../resource/define-resource.ts'
import { resourcePlugin } from '../resource/resource-plugin.ts'
import { acceptFormBodies } from '../views/form-body.ts'
import { setPanelLayout, type PanelLayout } from '../views/layout-context.ts'
import type { DashboardWidget } from '../views/dashboard-widgets.ts'
import { NamedRoutes } from './named-routes.ts'
import { mayEnterPanel, panelGate, type PanelAccess } from './panel-gate.ts'
import type { NavigationItem, PanelContext, PanelPlugin } from './panel-plugin.ts'

const HOME_VIEW = path.join(path.dirname(fileURLToPath(import.meta.url)), 'views', 'home.eta')
const SEGMENT = /^[a-z][a-z0-9-]*$/

/**
 * A panel is a Fastify plugin you can keep configuring:
 *
 *   const admin = Panel.make().id('admin').path('admin').access('admin-roles')
 *     .resources([UserResource]).plugin(SignaturePlugin.make())
 *   await app.register(admin)
 *
 * Registering it opens an encapsulated context at `/<path>` (not fastify-plugin-wrapped, so the
 * gate and the CSRF check cover exactly that prefix), runs every plugin's register(panel), then
 * every plugin's boot(panel, app). Resources are mounted through the same PanelPlugin contract.
 */
export interface PanelBuilder extends FastifyPluginAsync {
  id(id: string): PanelBuilder
  path(path: string): PanelBuilder
  /** Shown in the sidebar and the <title>; defaults to the id, capitalised. */
  label(label: string): PanelBuilder
  /** Who may enter. There is no default: a panel without .access() refuses to boot (fails closed). */
  access(access: PanelAccess): PanelBuilder
  resources(resources: AnyResource[]): PanelBuilder
  /** Widgets of /dashboard, shown to those who may enter this panel and whom decide() allows each one's permission. */
  widgets(widgets: DashboardWidget[]): PanelBuilder
  /** Plugins are keyed by id: registering the same id again replaces the earlier one, so it runs once. */
  plugin(plugin: PanelPlugin): PanelBuilder
  plugins(plugins: PanelPlugin[]): PanelBuilder
  /** The configuration so far, for tests and tooling. */
  describe(): { id?: string; path?: string; access?: PanelAccess; plugins: string[]; resources: string[] }
}

interface PanelState {
  id?: string
  path?: string
  label?: string
  access?: PanelAccess
  resources: AnyResource[]
  widgets: DashboardWidget[]
  plugins: Map<string, PanelPlugin>
}

export const Panel = {
  make(): PanelBuilder {
    const state: PanelState = { resources: [], widgets: [], plugins: new Map() }
    const mount: FastifyPluginAsync = async (app) => mountPanel(app, state)
    const builder = Object.assign(mount, {
      id: (id: string) => { state.id = id; return builder },
      path: (p: string) => { state.path = p.replace(/^\/+|\/+$/g, ''); return builder },
      label: (label: string) => { state.label = label; return builder },
      access: (access: PanelAccess) => { state.access = access; return builder },
      resources: (resources: AnyResource[]) => { state.resources.push(...resources); return builder },
      widgets: (widgets: DashboardWidget[]) => { state.widgets.push(...widgets); return builder },
      plugin: (plugin: PanelPlugin) => { state.plugins.set(plugin.id, plugin); return builder },
      plugins: (plugins: PanelPlugin[]) => { for (const p of plugins) state.plugins.set(p.id, p); return builder },
      describe: () => ({
        id: state.id, path: state.path, access: state.access,
        plugins: [...state.plugins.keys()], resources: state.resources.map((r) => r.slug),
      }),
    }) as PanelBuilder
    return builder
  },
}

async function mountPanel(app: FastifyInstance, state: PanelState): Promise<void> {
  const { id, path: prefix, access } = state
  if (!id || !SEGMENT.test(id)) throw new Error(`A panel needs .id() made of lower-case letters, digits and "-" (got ${JSON.stringify(id)})`)
  if (!prefix || !prefix.split('/').every((s) => SEGMENT.test(s))) throw new Error(`Panel "${id}" needs a .path() such as 'admin' (got ${JSON.stringify(prefix)})`)
  if (!access) throw new Error(`Panel "${id}" has no .access(): say who may enter ('admin-roles' or 'signed-in')`)
  const label = state.label ?? id.charAt(0).toUpperCase() + id.slice(1)
  const home = `/${prefix}`

  // Without the views (a JSON-only app, a route test) there is no layout, so no top bar to add to.
  const topbar = () => (app.hasDecorator('topbar') ? app.topbar : undefined)
  const policy = app.policy
  // The dashboard is outside the panel, so the panel's gate is asked there too: a widget's links lead into the panel.
  const addWidget = (widget: DashboardWidget) => {
    if (!app.hasDecorator('dashboardWidgets')) return
    const own = widget.visibleTo
    app.dashboardWidgets.add({ ...widget, visibleTo: (user) => mayEnterPanel(policy, access, user) && (!own || own(user)) })
  }
  const routes = new NamedRoutes()
  const navigation: NavigationItem[] = []
  // What the layout is told, per role (the policy never changes after boot); an item added to
  // the navigation starts them afresh.
  const layouts = new Map<string | undefined, PanelLayout>()
  const plugins = new Map<string, PanelPlugin>()
  let registering = true
  const relationLists = new Map<string, RelationList<any>[]>()
  const panel: PanelContext = {
    id,
    path: prefix,
    url: (name, params, query) => routes.url(name, params, query),
    navigationItem: (item) => { navigation.push(item); layouts.clear() },
    topbarItem: (item) => { topbar()?.add(item) },
    widget: addWidget,
    resources: (resources) => {
      if (!registering) throw new Error(`Panel "${id}": resources() is for register(); routes are already being mounted`)
      for (const resource of resources) {
        const plugin = resource.open(resourcePlugin)
        if (plugins.has(plugin.id)) throw new Error(`Panel "${id}" already has a resource "${resource.slug}"`)
        // Added while the loop below runs: a Map iterator visits entries added during the iteration.
        plugins.set(plugin.id, plugin)
      }
    },
    relationList: (slug, list) => {
      if (!registering) throw new Error(`Panel "${id}": relationList() is for register(); routes are already being mounted`)
      const lists = relationLists.get(slug) ?? []
      if (lists.some((l) => l.key === list.key)) throw new Error(`Panel "${id}": the resource "${slug}" already has a relation list "${list.key}"`)
      relationLists.set(slug, [...lists, list])
    },
    relationListsOf: (slug) => relationLists.get(slug) ?? [],
    hasResource: (slug) => plugins.has(`resource:${slug}`),
  }
  // Resources first so their navigation comes before the plugins'; those plugins contribute come last.
  for (const resource of state.resources) {
    const plugin = resource.open(resourcePlugin)
    plugins.set(plugin.id, plugin)
  }
  for (const [key, plugin] of state.plugins) plugins.set(key, plugin)
  for (const plugin of plugins.values()) plugin.register(panel)
  registering = false
  for (const slug of relationLists.keys()) {
    if (!plugins.has(`resource:${slug}`)) throw new Error(`Panel "${id}": a relation list was contributed to "${slug}", which is not a resource of this panel`)
  }
  for (const widget of state.widgets) addWidget(widget)

  // Every page's top bar links to the panels its user may enter, through the gate's own check.
  topbar()?.add({ key: `panel:${id}`, label, url: home, visibleTo: (user) => mayEnterPanel(policy, access, user) })
  await app.register(async (scope) => {
    scope.addHook('onRoute', (route) => {
      const name = (route.config as { name?: unknown } | undefined)?.name
      if (typeof name === 'string') routes.add(name, route.url ?? route.path)
    })
    acceptFormBodies(scope)
    const gate = panelGate(policy, access, label)
    const layoutFor = (role: string | undefined): PanelLayout => {
      let layout = layouts.get(role)
      if (!layout) {
        layout = Object.freeze({ id, label, home, url: panel.url, navigation: Object.freeze(navigation.filter((item) => !item.permission || policy.can(role, item.permission))) as NavigationItem[] })
        layouts.set(role, layout)
      }
      return layout
    }
    // One callback hook for the gate, the CSRF check and the layout: it runs on every request
    // under the panel, and the three are synchronous, so no promise is made.
    scope.addHook('onRequest', (request, reply, done) => {
      try {
        if (gate(request, reply)) return
        // Cookie-authenticated writes inside a panel must carry the session's token (x-csrf-token).
        verifyCsrf(request)
      } catch (error) {
        done(error as Error)
        return
      }
      setPanelLayout(request, layoutFor(request.user?.role))
      done()
    })

    scope.get('/', { config: { name: 'home' } }, async (request, reply) => {
      // The same per-role list the layout shows, filtered once per role.
      return reply.page(HOME_VIEW, { items: layoutFor(request.user?.role).navigation, panelLabel: label }, { title: label })
    })
    for (const plugin of plugins.values()) await plugin.boot(panel, scope)

    // Unknown paths under the prefix pass the gate first: a visitor who may not enter learns nothing.
    scope.setNotFoundHandler(async (request) => {
      throw noPageAt(request)
    })
  }, { prefix: home })
}
