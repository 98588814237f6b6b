import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { Eta } from 'eta'
import t from 'tap'
import { compiledViews } from '../../../core/views/compiled-views.ts'

async function viewsFolder(t: { teardown(fn: () => unknown): void }) {
  const root = await mkdtemp(path.join(tmpdir(), 'views-'))
  t.teardown(() => rm(root, { recursive: true, force: true }))
  await writeFile(path.join(root, 'page.eta'), 'Hello <%= it.name %>: <%~ include("./part", { n: 2 }) %>')
  await writeFile(path.join(root, 'part.eta'), 'part <%= it.n %> of <%= it.name %>')
  return root
}

const renderWith = (eta: Eta, view: ReturnType<typeof compiledViews>, file: string, data: object) => view(file).call(eta, data, {})

t.test('in production a view is compiled once: later edits to the file do not show', async (t) => {
  const root = await viewsFolder(t)
  const eta = new Eta({ views: root, autoEscape: true, cache: true })
  const view = compiledViews(eta, root, true)
  const page = path.join(root, 'page.eta')
  t.equal(renderWith(eta, view, page, { name: '<b>Ada</b>' }), 'Hello &lt;b&gt;Ada&lt;/b&gt;: part 2 of &lt;b&gt;Ada&lt;/b&gt;', 'escapes, and includes a neighbour by relative path')
  t.equal(view(page), view(page), 'the same compiled function every time')
  await writeFile(page, 'Edited <%= it.name %>')
  t.equal(renderWith(eta, view, page, { name: 'Ada' }), 'Hello Ada: part 2 of Ada')
})

t.test('in development every render reads the file again, so edits show on reload', async (t) => {
  const root = await viewsFolder(t)
  const eta = new Eta({ views: root, autoEscape: true, cache: false })
  const view = compiledViews(eta, root, false)
  const page = path.join(root, 'page.eta')
  t.equal(renderWith(eta, view, page, { name: 'Ada' }), 'Hello Ada: part 2 of Ada')
  await writeFile(page, 'Edited <%= it.name %>')
  t.equal(renderWith(eta, view, page, { name: 'Ada' }), 'Edited Ada')
})

t.test('a view outside the views folder is refused before anything is read', async (t) => {
  const root = await viewsFolder(t)
  const eta = new Eta({ views: root, autoEscape: true, cache: true })
  const view = compiledViews(eta, root, true)
  for (const file of [path.join(root, '..', 'elsewhere.eta'), '/etc/passwd', 'page.eta', path.join(root, 'a', '..', '..', 'x.eta')]) {
    t.throws(() => view(file), /must be an absolute path under/, file)
  }
})
