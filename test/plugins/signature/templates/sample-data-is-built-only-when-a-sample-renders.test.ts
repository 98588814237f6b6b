import { readFile, stat } from 'node:fs/promises'
import t from 'tap'
import { HtmlDumpRenderer, makeRegistry } from '../helpers.ts'

t.test('sample_data as a function is called only when a sample renders', async (t) => {
  const { registry, disk } = await makeRegistry(t)
  let calls = 0
  const template = registry.registerView('lazy', {
    view: 'pdf.simple',
    sample_data: () => { calls++; return { title: 'Expensive <sample>' } },
    slots: ['employee'],
  })
  registry.all(); registry.get('lazy').slots(); template.label()
  t.equal(calls, 0, 'registering, listing and reading slots build no sample data')

  const first = await template.renderSample()
  t.equal(calls, 1, 'rendering a sample calls it')
  t.ok(first.startsWith(disk.root), 'the sample is on the signature disk')
  t.equal(await readFile(first, 'utf8'), '<h1>Expensive &lt;sample&gt;</h1>', 'the data reached the view (escaped)')

  const renders = HtmlDumpRenderer.calls.length
  const mtime = (await stat(first)).mtimeMs
  const second = await template.renderSample()
  t.equal(second, first, 'same inputs, same path')
  t.equal(HtmlDumpRenderer.calls.length, renders, 'and no second render: the file is reused')
  t.equal((await stat(second)).mtimeMs, mtime, 'so its mtime (a page-image cache key) is stable')
})

t.test('changed sample data gives a new sample path', async (t) => {
  const { registry } = await makeRegistry(t)
  let title = 'one'
  const template = registry.registerView('changing', { view: 'pdf.simple', sample_data: () => ({ title }) })
  const a = await template.renderSample()
  title = 'two'
  t.not(await template.renderSample(), a)
})

t.test('sample_data as a plain object is used as is', async (t) => {
  const { registry } = await makeRegistry(t)
  const path = await registry.registerView('plain', { view: 'pdf.simple', sample_data: { title: 'Plain' } }).renderSample()
  t.equal(await readFile(path, 'utf8'), '<h1>Plain</h1>')
})
