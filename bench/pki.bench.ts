// Times of the application PKI's answers, through Fastify (inject) on an app with the signature
// plugin, SQLite register: one /pki/tsa response, one OCSP response, one CRL; the CA
// certificate (no key operation) is the baseline.
// Run: node --import tsx bench/pki.bench.ts   (never part of npm test)
import { execFileSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { buildSignatureApp } from '../test/helpers/signature-app.ts'
import { medianTime } from './lib/time.ts'

const teardowns: Array<() => unknown> = []
const app = await buildSignatureApp({ teardown: (fn) => teardowns.push(fn) }, { pkiRateLimit: { max: 1_000_000, windowMs: 60_000 } })
const dir = mkdtempSync(path.join(tmpdir(), 'pki-bench-'))
writeFileSync(path.join(dir, 'data'), 'bench')
writeFileSync(path.join(dir, 'ca.pem'), (await app.inject({ url: '/pki/ca.pem' })).body)
execFileSync('openssl', ['ts', '-query', '-data', 'data', '-sha256', '-cert', '-out', 'q'], { cwd: dir })
execFileSync('openssl', ['ocsp', '-issuer', 'ca.pem', '-serial', '0x0102', '-reqout', 'o'], { cwd: dir })
const query = readFileSync(path.join(dir, 'q'))
const ocsp = readFileSync(path.join(dir, 'o'))

const post = (url: string, type: string, payload: Buffer) => async () => {
  const response = await app.inject({ method: 'POST', url, headers: { 'content-type': type }, payload })
  if (response.statusCode !== 200) throw new Error(`${url}: ${response.statusCode}`)
}
const get = (url: string) => async () => {
  if ((await app.inject({ url })).statusCode !== 200) throw new Error(url)
}
const runs = 31
for (const step of [get('/pki/ca.pem'), post('/pki/tsa', 'application/timestamp-query', query), post('/pki/ocsp', 'application/ocsp-request', ocsp), get('/pki/crl')]) await medianTime(5, step) // warm
const base = await medianTime(runs, get('/pki/ca.pem'))
const rows = [
  ['GET /pki/ca.pem (baseline)', base],
  ['POST /pki/tsa (SHA-256 query, certReq)', await medianTime(runs, post('/pki/tsa', 'application/timestamp-query', query))],
  ['POST /pki/ocsp (one CertID, nonce)', await medianTime(runs, post('/pki/ocsp', 'application/ocsp-request', ocsp))],
  ['GET /pki/crl (empty)', await medianTime(runs, get('/pki/crl'))],
] as const
console.table(rows.map(([step, ms]) => ({ step, 'median ms': Number(ms.toFixed(3)), 'x baseline': Number((ms / base).toFixed(1)) })))
for (const fn of teardowns.reverse()) await fn()
rmSync(dir, { recursive: true, force: true })
