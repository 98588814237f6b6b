import { Panel, type PanelPlugin, type AnyResource } from '../core/index.ts'

/**
 * The admin panel at /admin: the roles in adminRoles only (requireAdmin), failing closed.
 * The host passes its resources (panels never import host-app); plugins are added here or by
 * the host with `.plugin(...)` on the returned builder.
 */
export function adminPanel(options: { resources?: AnyResource[]; plugins?: PanelPlugin[] } = {}) {
  return Panel.make()
    .id('admin')
    .path('admin')
    .label('Admin')
    .access('admin-roles')
    .resources(options.resources ?? [])
    .plugins(options.plugins ?? [])
}
