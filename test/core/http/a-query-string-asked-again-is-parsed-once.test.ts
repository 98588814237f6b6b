import Fastify from 'fastify'
import t from 'tap'
import { z } from 'zod'
import { rememberingQueryParser } from '../../../core/http/query-parser.ts'
import { parseInput } from '../../../core/http/validate.ts'

const schema = z.object({ page: z.coerce.number().int().min(1).default(1), tags: z.string().optional() }).strict()

async function appCounting(t: { teardown(fn: () => unknown): void }, maxEntries?: number) {
  let parses = 0
  const parse = rememberingQueryParser((query) => {
    parses++
    return { ...parseInput(schema, query, 'query'), filters: { kept: true } }
  }, maxEntries)
  const app = Fastify()
  app.get('/list', async (request) => parse(request))
  app.get('/spoil', async (request) => {
    const value = parse(request) as { page: number; filters: { kept: boolean } }
    const refused: string[] = []
    try { value.page = 99 } catch { refused.push('page') }
    try { value.filters.kept = false } catch { refused.push('filters.kept') }
    return { refused }
  })
  t.teardown(() => app.close())
  return { app, parses: () => parses }
}

t.test('the same query string is parsed once; another string is parsed anew', async (t) => {
  const { app, parses } = await appCounting(t)
  for (let i = 0; i < 3; i++) t.same((await app.inject('/list?page=2')).json(), { page: 2, filters: { kept: true } })
  t.equal(parses(), 1)
  t.same((await app.inject('/list?page=3')).json(), { page: 3, filters: { kept: true } })
  t.same((await app.inject('/list')).json(), { page: 1, filters: { kept: true } })
  t.equal(parses(), 3)
})

t.test('a refused query is refused every time, with its field, and is not kept', async (t) => {
  const { app, parses } = await appCounting(t)
  for (let i = 0; i < 2; i++) {
    const response = await app.inject('/list?page=0')
    t.equal(response.statusCode, 400)
    t.match(response.json().message, 'query.page')
  }
  t.equal(parses(), 2)
})

t.test('no caller can change what the next one gets', async (t) => {
  const { app } = await appCounting(t)
  t.same((await app.inject('/spoil?page=2')).json(), { refused: ['page', 'filters.kept'] })
  t.same((await app.inject('/spoil?page=2')).json(), { refused: ['page', 'filters.kept'] })
})

t.test('it is bounded: past its size the least recent string is parsed again', async (t) => {
  const { app, parses } = await appCounting(t, 2)
  for (const page of [1, 2, 3, 1]) await app.inject(`/list?page=${page}`)
  t.equal(parses(), 4, 'page=1 had been dropped for page=3')
})
