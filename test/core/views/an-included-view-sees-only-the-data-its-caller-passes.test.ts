import path from 'node:path'
import type { FastifyRequest } from 'fastify'
import t from 'tap'
import { PROJECT_ROOT } from '../../../config/app.ts'
import { buildTestApp } from '../../helpers/app.ts'

const PAGE = path.join(PROJECT_ROOT, 'test', 'fixtures', 'views', 'page-including-components.eta')

// A component is rendered from what its caller hands it, like props. Eta's own include spreads
// the including view's data under the caller's, so a page's `ids` turned the single-delete
// confirmation into a bulk form and its `size` resized every icon.
t.test('a component does not see the data of the page that includes it', async (t) => {
  const app = await buildTestApp(t, { env: { NODE_ENV: 'production' } })
  const request = { user: null, url: '/admin/users', session: { get: () => 'token', set() {} } } as unknown as FastifyRequest
  const html = await app.renderView(request, PAGE, { title: 'People', ids: ['u-1', 'u-2'], size: 48 })

  t.match(html, /<h1>People<\/h1>/, 'the page itself sees its data')
  t.match(html, /<h2 id="modal-title" class="confirm-title">Delete Ada\?<\/h2>/, 'the component sees its own title, not the page title')
  t.notMatch(html, /bulk-delete-form|name="ids"/, 'no bulk form made from the page\'s ids')
  t.match(html, /hx-delete="\/admin\/users\/u-ada"/, 'the single delete it was asked for')
  t.equal((html.match(/width="16" height="16"/g) ?? []).length, 2, 'both icons keep their own size (the plus, and the alert inside the confirmation)')
  t.notMatch(html, /width="48"/, 'the page\'s size reached no icon')
})

t.test('an include that names its data still gets all of it', async (t) => {
  const app = await buildTestApp(t, { env: { NODE_ENV: 'production' } })
  const request = { user: null, url: '/admin/users', session: { get: () => 'token', set() {} } } as unknown as FastifyRequest
  const html = await app.renderView(request, path.join(PROJECT_ROOT, 'core', 'resource', 'views', 'confirm-delete.eta'), {
    confirm: { title: 'Delete 2 people?', message: 'They lose access.', deleteUrl: '/admin/users/bulk-delete', cancelHref: '/admin/users', ids: ['u-1', 'u-2'], confirmLabel: 'Delete 2' },
    standalone: true,
  })
  t.match(html, /<form id="bulk-delete-form"/, 'ids passed explicitly make the bulk form')
  t.equal((html.match(/name="ids" value="u-\d"/g) ?? []).length, 2)
  t.match(html, /<a class="button button-secondary" href="\/admin\/users" autofocus>Cancel<\/a>/, 'standalone passed explicitly')
})
