import t from 'tap'
import { isAppError } from '../../../../core/http/errors.ts'
import { makeRegistry } from '../helpers.ts'

t.test('missing keys: find() answers null, get() throws ERR_TEMPLATE_NOT_FOUND', async (t) => {
  const { registry } = await makeRegistry(t)
  registry.registerView('present', { view: 'pdf.simple' })

  t.equal(registry.has('present'), true)
  t.equal(registry.find('present')?.key(), 'present')
  t.equal(registry.get('present').key(), 'present')

  for (const key of ['absent', 'Present', '../present', '', '__proto__', 'constructor']) {
    t.equal(registry.has(key), false, `has(${JSON.stringify(key)})`)
    t.equal(registry.find(key), null, `find(${JSON.stringify(key)}) is null`)
    let error: unknown
    try { registry.get(key) } catch (e) { error = e }
    t.ok(isAppError(error), `get(${JSON.stringify(key)}) throws`)
    t.match(error, { code: 'ERR_TEMPLATE_NOT_FOUND', statusCode: 404 })
  }
})
