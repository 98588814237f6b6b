import { createHash, timingSafeEqual } from 'node:crypto'
import { BlockList, isIP } from 'node:net'
import type { FastifyRequest } from 'fastify'
import { ERR_ACCESS_DENIED, ERR_UNAUTHENTICATED } from '../http/errors.ts'

export interface MetricsAccessOptions {
  /** METRICS_TOKEN: a scraper sends `Authorization: Bearer <token>`. */
  token?: string | undefined
  /** METRICS_ALLOW: addresses or CIDR ranges (10.0.0.0/8, ::1) that may scrape without the token. */
  allow?: readonly string[] | undefined
}

const digest = (value: string) => createHash('sha256').update(value).digest()

/** Parses METRICS_ALLOW's entries; a malformed one stops the boot naming it. */
export function parseAllowList(entries: readonly string[]): BlockList {
  const list = new BlockList()
  for (const entry of entries) {
    const [address = '', bits] = entry.trim().split('/')
    const family = isIP(address)
    if (family === 0) throw new Error(`METRICS_ALLOW: ${JSON.stringify(entry)} is not an IP address or CIDR range`)
    const type = family === 4 ? 'ipv4' : 'ipv6'
    if (bits === undefined) list.addAddress(address, type)
    else {
      const prefix = Number(bits)
      if (!/^\d+$/.test(bits) || prefix > (family === 4 ? 32 : 128)) throw new Error(`METRICS_ALLOW: ${JSON.stringify(entry)} has a bad prefix length`)
      list.addSubnet(address, prefix, type)
    }
  }
  return list
}

/**
 * Who may read /metrics: a client address on the allow-list, or a request carrying the token.
 * The token is compared through digests of equal length in constant time. The address is
 * request.ip, so behind a proxy it is the client's only with TRUST_PROXY.
 */
export function metricsAccess(options: MetricsAccessOptions): (request: FastifyRequest) => void {
  const expected = options.token ? digest(options.token) : undefined
  const allowed = options.allow?.length ? parseAllowList(options.allow) : undefined
  if (!expected && !allowed) throw new Error('METRICS=on needs METRICS_TOKEN or METRICS_ALLOW: the metrics are not for everyone')
  return (request) => {
    if (allowed && isAllowed(allowed, request.ip)) return
    if (expected) {
      const header = request.headers.authorization
      const given = header?.startsWith('Bearer ') ? header.slice(7).trim() : undefined
      if (given && timingSafeEqual(digest(given), expected)) return
      throw ERR_UNAUTHENTICATED('Send the metrics token as Authorization: Bearer <METRICS_TOKEN>', { headers: { 'WWW-Authenticate': 'Bearer realm="metrics"' } })
    }
    throw ERR_ACCESS_DENIED('This address may not read the metrics (METRICS_ALLOW)')
  }
}

function isAllowed(list: BlockList, ip: string): boolean {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip)
  const address = mapped ? mapped[1]! : ip
  const family = isIP(address)
  return family !== 0 && list.check(address, family === 4 ? 'ipv4' : 'ipv6')
}
