import { createReadStream } from 'node:fs'
import { createRequire } from 'node:module'
import path from 'node:path'
import type { FastifyReply } from 'fastify'

const require = createRequire(import.meta.url)
// signature_pad from node_modules (the machines that run this have no internet): smoothing and
// pressure-like strokes that a hand-rolled canvas would not give.
const SIGNATURE_PAD = path.join(path.dirname(require.resolve('signature_pad')), 'signature_pad.umd.min.js')

/** Answers signature_pad's browser build; every page that lets a user draw a signature loads it. */
export function sendSignaturePad(reply: FastifyReply): FastifyReply {
  return reply.type('text/javascript; charset=utf-8').header('cache-control', 'private, max-age=3600').send(createReadStream(SIGNATURE_PAD))
}
