// "New document" (issue 38) is in the navigation and answers only for whom decide() grants
// documents:create (admin and manager in the demo); for staff it is neither listed nor served.
// The page carries what its script needs: the API's addresses, the people to choose from, the palette.
import t from 'tap'
import { buildTestApp, DEMO, login } from '../../../helpers/app.ts'
import { getPage } from '../../../helpers/pages.ts'

t.test('admin and manager get the page and its link; staff gets neither', async (t) => {
  const app = await buildTestApp(t)
  for (const who of ['admin', 'manager'] as const) {
    const cookie = await login(app, DEMO[who].email)
    const page = await getPage(app, '/app/documents/new', cookie)
    t.equal(page.statusCode, 200, `${who}: 200`)
    t.match(page.body, /<a class="sidebar-link[^"]*" href="\/app\/documents\/new"[^>]*>New document<\/a>/, `${who}: the navigation links to it`)
    const config = JSON.parse(/data-config="([^"]+)"/.exec(page.body)![1]!.replace(/&quot;/g, '"').replace(/&amp;/g, '&').replace(/&#39;/g, "'"))
    t.match(config, { uploadUrl: '/api/documents', pageUrl: '/api/documents/__id__/pages/__page__', sessionsUrl: '/api/signing-sessions', sessionUrl: '/app/sessions/__id__' })
    t.ok(config.people.some((p: { id: string; email: string }) => p.id === DEMO.staff.id && p.email === DEMO.staff.email), `${who}: people to choose from`)
    for (const label of ['Signature', 'Date signed', 'Name', 'Initials', 'Text']) t.match(page.body, `>${label}</button>`, `${who}: the palette has ${label}`)
    t.match(page.body, /<script type="module" src="\/app\/signature-assets\/document-editor.js"><\/script>/)
  }
  const staff = await login(app, DEMO.staff.email)
  const refused = await getPage(app, '/app/documents/new', staff)
  t.equal(refused.statusCode, 403, 'staff: refused')
  const dashboard = await getPage(app, '/app', staff)
  t.equal(dashboard.statusCode, 200)
  t.notMatch(dashboard.body, '/app/documents/new', 'staff: no link to it')
  const signedOut = await getPage(app, '/app/documents/new')
  t.equal(signedOut.statusCode, 303, 'signed out: to the sign-in page')
  t.match(signedOut.headers.location, /^\/login/)
})

t.test('the editor script and its modules are served to the panel', async (t) => {
  const app = await buildTestApp(t)
  const cookie = await login(app, DEMO.admin.email)
  for (const file of ['document-editor.js', 'document-editor-model.js', 'box-gestures.js', 'documents.css']) {
    t.equal((await getPage(app, `/app/signature-assets/${file}`, cookie)).statusCode, 200, file)
  }
})
