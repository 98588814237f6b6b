// Reads Prometheus's text exposition format (version 0.0.4) as a scraper does: # TYPE lines and
// samples with their labels, so tests check what Prometheus would see rather than strings.
import type { FastifyInstance } from 'fastify'

export interface Sample { name: string; labels: Record<string, string>; value: number }
export interface Exposition { types: Map<string, string>; samples: Sample[] }

const SAMPLE = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/
const LABEL = /([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g

export function parseExposition(text: string): Exposition {
  const types = new Map<string, string>()
  const samples: Sample[] = []
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('# HELP ')) continue
    const type = /^# TYPE (\S+) (counter|gauge|histogram|summary|untyped)$/.exec(line)
    if (type) {
      types.set(type[1]!, type[2]!)
      continue
    }
    const match = SAMPLE.exec(line)
    if (!match) throw new Error(`not an exposition line: ${JSON.stringify(line)}`)
    const labels: Record<string, string> = {}
    for (const [, key, value] of (match[2] ?? '').matchAll(LABEL)) labels[key!] = value!.replace(/\\(.)/g, (_, c: string) => (c === 'n' ? '\n' : c))
    samples.push({ name: match[1]!, labels, value: match[3] === '+Inf' ? Infinity : Number(match[3]) })
  }
  return { types, samples }
}

/** The value of the one sample named `name` whose labels include `labels` (0 when none). */
export function valueOf(exposition: Exposition, name: string, labels: Record<string, string> = {}): number {
  const found = exposition.samples.filter((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v))
  if (found.length > 1) throw new Error(`${found.length} samples of ${name} match ${JSON.stringify(labels)}`)
  return found[0]?.value ?? 0
}

export const METRICS_TOKEN = 'a-test-metrics-token-0123456789'

/** GET /metrics with the test token, parsed. */
export async function scrape(app: FastifyInstance): Promise<Exposition> {
  const response = await app.inject({ url: '/metrics', headers: { authorization: `Bearer ${METRICS_TOKEN}` } })
  if (response.statusCode !== 200) throw new Error(`/metrics: ${response.statusCode} ${response.body}`)
  return parseExposition(response.body)
}
