import type { FastifyRequest } from 'fastify'
import type { NavigationItem } from '../panel/panel-plugin.ts'

/** What a panel tells the layout about the request it is answering. */
export interface PanelLayout {
  id: string
  label: string
  /** Absolute path of the panel home, e.g. '/admin'. */
  home: string
  /** Navigation already filtered for the signed-in user. */
  navigation: NavigationItem[]
  url(name: string, params?: Record<string, string | number>, query?: Record<string, string | number | undefined>): string
}

// A WeakMap rather than a request decorator: the panel is an encapsulated context and the
// layout lives at the root, so neither has to know the other's decorators.
const layouts = new WeakMap<FastifyRequest, PanelLayout>()

export function setPanelLayout(request: FastifyRequest, layout: PanelLayout): void {
  layouts.set(request, layout)
}

export function panelLayoutOf(request: FastifyRequest): PanelLayout | undefined {
  return layouts.get(request)
}
