// /sign/<token> (issue 38) opens without an account: the page carries only the link's API
// addresses (it asks the database nothing; the API decides), keeps the token out of any Referer,
// and its asset folder serves the files that page runs and nothing else of the plugin's.
import t from 'tap'
import { buildTestApp } from '../../../helpers/app.ts'
import { getPage } from '../../../helpers/pages.ts'

const TOKEN = 'AbCdEfGhIjKlMnOpQrStUvWxYz0123456789-_AbCdE'

t.test('the page opens signed out, with the link\'s API and no referrer', async (t) => {
  const app = await buildTestApp(t)
  const page = await getPage(app, `/sign/${TOKEN}`)
  t.equal(page.statusCode, 200)
  t.equal(page.headers['referrer-policy'], 'no-referrer', 'the token never leaves in a Referer')
  t.match(page.headers['cache-control'], 'no-store')
  t.match(page.body, `&quot;api&quot;:&quot;/api/sign-links/${TOKEN}&quot;`)
  t.match(page.body, /<script type="module" src="\/sign-assets\/document-signing.js"><\/script>/)
  t.notMatch(page.body, /href="\/app\//, 'no link into a panel')
  t.equal((await getPage(app, '/sign/not<a>token')).statusCode, 400, 'a malformed token: refused before anything')
})

t.test('the asset folder serves the signing page\'s files only', async (t) => {
  const app = await buildTestApp(t)
  for (const file of ['document-signing.js', 'document-signing-model.js', 'coordinates.js', 'signature-drawing.js', 'signature_pad.js', 'documents.css', 'signature-font.css', 'fonts/dancing-script-latin-400-normal.woff2']) {
    t.equal((await getPage(app, `/sign-assets/${file}`)).statusCode, 200, file)
  }
  for (const file of ['designer.js', 'document-editor.js', 'my-signatures.js', '../signature-app.ts', '%2e%2e/signature-app.ts']) {
    t.not((await getPage(app, `/sign-assets/${file}`)).statusCode, 200, `${file}: not served`)
  }
})
