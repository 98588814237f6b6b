import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { ERR_UNSUPPORTED_MEDIA_TYPE } from '../../../core/http/errors.ts'
import { requestRateLimit, type RequestRateLimitOptions } from '../../../core/http/request-rate-limit.ts'
import { PKI_ROUTE } from '../route-names.ts'
import type { ApplicationPki } from './application-pki.ts'
import { ERR_PKI_BAD_ENCODING, ERR_PKI_EMPTY_REQUEST } from './errors.ts'
import { PKI_PATH } from './pki-urls.ts'

export interface PkiRoutesOptions {
  pki: ApplicationPki
  /** Per client address and route (each /pki route a bucket of its own); default 300 a minute. */
  rateLimit?: RequestRateLimitOptions
  /** false: no POST /pki/tsa (the app's own signatures are timestamped in-process either way). */
  publicTsa?: boolean
}

/**
 * Bodies: a TimeStampReq with a SHA-512 imprint, a policy and a 20-byte nonce is about 120 bytes;
 * an OCSP request for the 20 certificates it may name, nonce and a requestor signature with its
 * certificate, a few KiB. Anything larger is refused (413) before it is read.
 */
export const PKI_BODY_LIMITS = { tsa: 4 * 1024, ocsp: 16 * 1024 } as const

const TYPES = { query: 'application/timestamp-query', reply: 'application/timestamp-reply', ocspRequest: 'application/ocsp-request', ocspResponse: 'application/ocsp-response' } as const

/**
 * /pki: the CA certificate, its CRL, OCSP and the timestamp authority. No session: the answers
 * are public, signed, and the same for everyone, and nothing here writes. Encapsulated, so the
 * DER body parsers and the rate limit cover these routes only.
 */
export async function pkiRoutes(app: FastifyInstance, { pki, rateLimit = { max: 300, windowMs: 60_000 }, publicTsa = true }: PkiRoutesOptions) {
  // A bucket per route: a client flooding the timestamp authority (a private-key operation per
  // answer) must not also lock itself, or those behind its address, out of the CA, CRL and OCSP.
  app.addHook('onRequest', requestRateLimit({ ...rateLimit, key: (request) => `${request.routeOptions.url ?? ''} ${request.ip}` }))
  // Any other type is read as bytes too (within the route's cap), so the handler refuses it
  // naming the type it wants rather than Fastify's generic 415.
  app.addContentTypeParser([TYPES.query, TYPES.ocspRequest, '*'], { parseAs: 'buffer' }, (_request, body, done) => done(null, body))

  app.get(PKI_PATH.caPem, { config: { name: PKI_ROUTE.caPem } }, async (_request, reply) =>
    reply.type('application/x-pem-file').header('cache-control', 'public, max-age=3600').send(pki.caPem))
  app.get(PKI_PATH.caDer, { config: { name: PKI_ROUTE.caDer } }, async (_request, reply) =>
    reply.type('application/pkix-cert').header('cache-control', 'public, max-age=3600').send(pki.caDer))

  // Made per request: a revocation committed on any instance is in the next list.
  app.get(PKI_PATH.crl, { config: { name: PKI_ROUTE.crl } }, async (_request, reply) =>
    reply.type('application/pkix-crl').send(await pki.crl()))

  if (publicTsa) app.post(PKI_PATH.tsa, { bodyLimit: PKI_BODY_LIMITS.tsa, config: { name: PKI_ROUTE.tsa } }, async (request, reply) =>
    reply.type(TYPES.reply).send(pki.timestamp(derBody(request, TYPES.query))))

  app.post(PKI_PATH.ocsp, { bodyLimit: PKI_BODY_LIMITS.ocsp, config: { name: PKI_ROUTE.ocsp } }, async (request, reply) =>
    sendOcsp(reply, await pki.ocsp(derBody(request, TYPES.ocspRequest))))

  // RFC 6960 appendix A.1: GET {url}/{url-encoding of base64 of the DER request}, for small
  // requests a cache in between can answer.
  app.get<{ Params: { '*': string } }>(`${PKI_PATH.ocsp}/*`, { config: { name: PKI_ROUTE.ocspGet } }, async (request, reply) => {
    const encoded = request.params['*']
    if (encoded.length > Math.ceil(PKI_BODY_LIMITS.ocsp * 4 / 3) + 4 || !/^[A-Za-z0-9+/]+={0,2}$/.test(encoded)) throw ERR_PKI_BAD_ENCODING()
    return sendOcsp(reply, await pki.ocsp(Buffer.from(encoded, 'base64')))
  })
}

function sendOcsp(reply: FastifyReply, response: Buffer) {
  return reply.type(TYPES.ocspResponse).send(response)
}

function derBody(request: FastifyRequest, type: string): Buffer {
  const sent = (request.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase()
  if (sent !== type) throw ERR_UNSUPPORTED_MEDIA_TYPE(`Send the body as ${type}`)
  if (!Buffer.isBuffer(request.body) || request.body.length === 0) throw ERR_PKI_EMPTY_REQUEST()
  return request.body
}
