import type { FastifyInstance } from 'fastify'
import type { AnyResource, RelationList } from '../resource/define-resource.ts'
import type { TopbarItem } from '../views/topbar.ts'
import type { DashboardWidget } from '../views/dashboard-widgets.ts'

// The contract between a panel and the plugins composed into it (Filament's id + register + boot).

export interface NavigationItem {
  label: string
  /** Absolute path, usually from panel.url(). */
  url: string
  /** Shown only to users for whom decide() allows this permission. */
  permission?: string
  group?: string
  /** Active when the current path starts with this (defaults to url). */
  activePrefix?: string
}

export interface PanelContext {
  /** e.g. 'admin' */
  readonly id: string
  /** URL prefix without slashes, e.g. 'admin' */
  readonly path: string
  /**
   * Path of a named route of this panel. Routes are named with
   * `app.get(path, { config: { name: 'signature.pdf-templates.signer.meta' } }, handler)`
   * inside boot(); names are per panel, so every panel can mount the same plugin.
   */
  url(name: string, params?: Record<string, string | number>, query?: Record<string, string | number | undefined>): string
  navigationItem(item: NavigationItem): void
  /** A link in the top bar of every page of the app (not only this panel's), e.g. an inbox. */
  topbarItem(item: TopbarItem): void
  /**
   * A widget of /dashboard (a counter, a short table). Shown to the users decide() allows its
   * permission and who may enter this panel (its links lead here); never computed for the others.
   */
  widget(widget: DashboardWidget): void
  /**
   * Contributes resources from register(): each is mounted exactly like the panel's own
   * (navigation, routes, permission checks). A slug the panel already has is refused at boot.
   */
  resources(resources: AnyResource[]): void
  /**
   * Contributes a list of related records to the page of each record of this panel's resource
   * `slug`, from register() (the signature plugin lists a person's signatures on their page).
   * It is shown to whom decide() grants its permission, beside the resource's own relations.
   */
  relationList(slug: string, list: RelationList<any>): void
  /** Whether the panel has a resource with this slug (its own, or one contributed before this call). */
  hasResource(slug: string): boolean
  /** The relation lists contributed to a resource, for its record page (read at boot). */
  relationListsOf(slug: string): readonly RelationList<any>[]
}

export interface PanelPlugin {
  readonly id: string
  /** Declarations only (navigation, resources); runs once per panel, before any route exists. */
  register(panel: PanelContext): void
  /**
   * Mounts routes. `app` is the panel's encapsulated context: its prefix is `/<panel.path>`,
   * the panel's access gate and CSRF check already cover it.
   */
  boot(panel: PanelContext, app: FastifyInstance): Promise<void> | void
}
