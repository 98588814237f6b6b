import { readdirSync, readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import fastifyStatic from '@fastify/static'
import { Eta } from 'eta'
import fp from 'fastify-plugin'
import type { FastifyReply, FastifyRequest } from 'fastify'
import { csrfToken } from '../auth/session.ts'
import { panelLayoutOf } from './layout-context.ts'
import { renderErrorPage } from './error-pages.ts'
import { compiledViews } from './compiled-views.ts'
import { escapeHtml } from './escape-html.ts'
import { explicitInclude } from './explicit-include.ts'
import { takeNotice } from './notice.ts'
import { Topbar } from './topbar.ts'
import { viewByName } from './view-by-name.ts'
import { DashboardWidgets } from './dashboard-widgets.ts'
import { registerSourceArchive, SOURCE_ARCHIVE_PATH } from '../source/source-route.ts'

const HERE = path.dirname(fileURLToPath(import.meta.url))
const LAYOUT = path.join(HERE, 'layout.eta')
const require = createRequire(import.meta.url)

export interface ViewsOptions {
  /** Every view file lives under this folder (Eta refuses templates outside its views root). */
  root: string
  /** Our own stylesheet and scripts, served at /assets/. */
  publicDir: string
  /** Caches compiled templates; off in development so edits show on reload. */
  production: boolean
  /**
   * Where every page's "Source" link points (AGPL-3.0 §13: whoever uses the program over the
   * network is offered its source). Default: /source.tar.gz, an archive of the files under `root`
   * that this server serves itself. A host that installed the framework as a package, or runs a
   * modified version kept elsewhere, sets the address of its own source.
   */
  sourceUrl?: string
}

export interface PageOptions {
  /** The <title> and the page heading. */
  title: string
}

declare module 'fastify' {
  interface FastifyReply {
    /**
     * Renders `viewFile` (absolute path of an .eta file under the views root) inside the layout:
     * the panel's sidebar when the route belongs to a panel, a top bar otherwise. The view gets
     * `it` = your data plus `it.user`, `it.csrfToken` and, inside a panel, `it.url(name, params, query)`.
     */
    page(viewFile: string, data?: object, options?: PageOptions): Promise<FastifyReply>
    /** Renders `viewFile` alone (no layout): the answer to an htmx request that swaps a part. */
    fragment(viewFile: string, data?: object): Promise<FastifyReply>
    /**
     * For hosts used to @fastify/view: renders the view `name` (relative to the views root, '.eta'
     * optional) with `data` and the same helpers as reply.page, alone (no layout), and sends it
     * as HTML. A name that is no view under the root fails with ERR_VIEW_NOT_FOUND.
     */
    view(name: string, data?: object): Promise<FastifyReply>
  }
  interface FastifyInstance {
    /** The links of every page's top bar: panels and panel plugins add theirs (core/views/topbar.ts). */
    topbar: Topbar
    /** The widgets of /dashboard: panels and panel plugins add theirs (core/views/dashboard-widgets.ts). */
    dashboardWidgets: DashboardWidgets
    /** Renders a view file to a string with the same helpers as reply.page. */
    renderView(request: FastifyRequest, viewFile: string, data?: object): Promise<string>
  }
}

/**
 * A rendered page is a rope of many small strings. Sent as a string, it is walked twice: once
 * by Fastify for Content-Length, once by the socket to encode it. One Buffer.from does both.
 */
function encoded(html: string): Buffer {
  return Buffer.from(html, 'utf8')
}

// The data a view gets: the helpers, then its own keys over them. Built with Object.assign, not
// `{ ...helpers, title, ...data }`: on Node 20's V8 a literal that starts with a spread of an
// object made per call and then adds keys takes a slow path, about 1.4 µs a key (15 µs for a
// People page's data, 5 % of its CPU at saturation; measured in isolation and in the profile).
function viewData(helpers: object, ...parts: object[]): object {
  return Object.assign({}, helpers, ...parts)
}

const noPanelUrl = () => { throw new Error('url() is only available in views rendered inside a panel') }

/** The helpers every view sees, whatever rendered it. */
function viewHelpers(request: FastifyRequest, panel = panelLayoutOf(request)) {
  return {
    user: request.user,
    csrfToken: csrfToken(request),
    url: panel?.url ?? noPanelUrl,
    currentPath: request.url.split('?')[0],
  }
}

/**
 * Eta views (compiled once per file, called directly), the layout, the shared components (named
 * templates: `@flash`, `@table`, `@field`, `@pagination`, `@confirm`), static assets, and HTML
 * error pages.
 * Wrapped with fastify-plugin: reply.page must work in every context, panels included.
 */
export const setupViews = fp<ViewsOptions>(async (app, options) => {
  const eta = new Eta({ views: options.root, autoEscape: true, escapeFunction: escapeHtml, cache: options.production, plugins: [explicitInclude] })
  const componentsDir = path.join(HERE, 'components')
  for (const file of readdirSync(componentsDir).filter((f) => f.endsWith('.eta'))) {
    eta.loadTemplate(`@${path.basename(file, '.eta')}`, readFileSync(path.join(componentsDir, file), 'utf8'))
  }

  const view = compiledViews(eta, options.root, options.production)

  const render = (viewFile: string, data: object): string => view(viewFile).call(eta, data, {})

  app.decorate('topbar', new Topbar())
  app.decorate('dashboardWidgets', new DashboardWidgets())
  const sourceUrl = options.sourceUrl ?? SOURCE_ARCHIVE_PATH
  if (!options.sourceUrl) registerSourceArchive(app, options.root)
  app.decorate('renderView', async (request: FastifyRequest, viewFile: string, data: object = {}) =>
    render(viewFile, viewData(viewHelpers(request), data)))

  app.decorateReply('page', async function page(this: FastifyReply, viewFile: string, data: object = {}, options?: PageOptions) {
    const title = options?.title ?? ''
    const panel = panelLayoutOf(this.request)
    // Worked out once for the view and its layout.
    const helpers = viewHelpers(this.request, panel)
    const body = render(viewFile, viewData(helpers, { title }, data))
    const request = this.request
    const topbar = await app.topbar.shownTo(app.policy, request.user, helpers.currentPath ?? '/', (error) => request.log.warn({ err: error }, 'a top bar count failed'))
    const html = render(LAYOUT, viewData(helpers, { title, body, panel, topbar, sourceUrl, notice: takeNotice(request) }))
    // The same URL answers a fragment or a page depending on HX-Request: caches must keep both.
    return this.header('Vary', 'HX-Request').type('text/html; charset=utf-8').send(encoded(html))
  })

  const named = viewByName(options.root, options.production)
  app.decorateReply('view', async function view(this: FastifyReply, name: string, data: object = {}) {
    const html = render(named(name), viewData(viewHelpers(this.request), data))
    return this.type('text/html; charset=utf-8').send(encoded(html))
  })

  app.decorateReply('fragment', async function fragment(this: FastifyReply, viewFile: string, data: object = {}) {
    const html = await app.renderView(this.request, viewFile, data)
    return this.header('Vary', 'HX-Request').type('text/html; charset=utf-8').send(encoded(html))
  })

  await app.register(fastifyStatic, { root: options.publicDir, prefix: '/assets/', index: false, maxAge: options.production ? '1d' : 0 })
  // htmx and Alpine straight from node_modules: the machines that run this have no internet.
  // Alpine's CSP build reads expressions with its own parser instead of `new Function`, so the
  // CSP needs no 'unsafe-eval' (core/http/security.ts).
  const vendor = [
    { prefix: '/assets/vendor/htmx/', file: require.resolve('htmx.org/dist/htmx.min.js') },
    { prefix: '/assets/vendor/alpine/', file: require.resolve('@alpinejs/csp/dist/cdn.min.js') },
  ]
  for (const { prefix, file } of vendor) {
    await app.register(fastifyStatic, {
      root: path.dirname(file), prefix, decorateReply: false, index: false, allowedPath: (p) => p === `/${path.basename(file)}`,
    })
  }

  app.errorPages.render = (request, reply, error) => renderErrorPage(app, request, reply, error)
}, { name: 'core-views', dependencies: ['core-session'] })

