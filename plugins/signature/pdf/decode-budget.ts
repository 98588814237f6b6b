// pdf-lib inflates object and cross-reference streams while it parses, in JavaScript, into one
// growing buffer per stream, with no bound: 1 MB of Flate data became 1 GiB of memory and 19 s of
// a worker. Every decoder of pdf-lib grows its output through DecodeStream.ensureBuffer, so the
// budget is checked there, before the memory is taken.
import { createRequire } from 'node:module'
import { ERR_PDF_DECODED_TOO_LARGE } from './errors.ts'

interface Budget {
  limit: number
  used: number
  exceeded: boolean
}

interface DecodeStreamPrototype {
  ensureBuffer(this: unknown, requested: number): Uint8Array
  decode(this: unknown): Uint8Array
}

// The same module instance `import 'pdf-lib'` loads: the package has no "exports", so Node
// resolves it to its CommonJS build.
const require = createRequire(import.meta.url)
const proto = (require('pdf-lib/cjs/core/streams/DecodeStream.js') as { default: { prototype: DecodeStreamPrototype } }).default.prototype

let active: Budget | undefined

const ensureBuffer = proto.ensureBuffer
proto.ensureBuffer = function (requested) {
  if (active && active.used + requested > active.limit) {
    // pdf-lib's parser swallows errors from objects it cannot read and goes on, so the flag is
    // what withDecodeBudget() reports, whatever the parser did with the throw.
    active.exceeded = true
    throw tooLarge(active.limit)
  }
  return ensureBuffer.call(this, requested)
}
const decode = proto.decode
proto.decode = function () {
  const out = decode.call(this)
  if (active) active.used += out.length
  return out
}

function tooLarge(limit: number) {
  return ERR_PDF_DECODED_TOO_LARGE(`The PDF's compressed streams expand to more than ${Math.round(limit / 1024 / 1024)} MiB`)
}

/** Runs `work` (a pdf-lib parse) with at most `limit` bytes of decoded stream data; throws 413 ERR_PDF_DECODED_TOO_LARGE past it. */
export async function withDecodeBudget<T>(limit: number, work: () => Promise<T>): Promise<T> {
  const previous = active
  const budget: Budget = { limit, used: 0, exceeded: false }
  active = budget
  try {
    const result = await work()
    if (budget.exceeded) throw tooLarge(limit)
    return result
  } catch (error) {
    throw budget.exceeded ? tooLarge(limit) : error
  } finally {
    active = previous
  }
}
