// Names of the plugin's panel routes, in one place: route files link to each other through
// panel.url(name) and must not import each other to learn a name.

export const DESIGNER_ROUTE = {
  page: 'signature.pdf-templates.designer',
  meta: 'signature.pdf-templates.designer.meta',
  pageImage: 'signature.pdf-templates.designer.page',
  save: 'signature.pdf-templates.designer.save',
} as const

export const TEMPLATES_ROUTE = {
  index: 'signature.templates.index',
  sample: 'signature.templates.sample',
  designer: DESIGNER_ROUTE.page,
} as const
