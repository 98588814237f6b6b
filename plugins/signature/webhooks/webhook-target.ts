import { lookup } from 'node:dns/promises'
import { BlockList, isIP } from 'node:net'
import { ERR_WEBHOOK_TARGET_PRIVATE, ERR_WEBHOOK_TARGET_UNRESOLVABLE, ERR_WEBHOOK_URL_INVALID } from './webhook-errors.ts'

// Where a webhook may go. Without WEBHOOKS_ALLOW_PRIVATE an admin could otherwise make the server
// post to its own loopback services or the private network behind it (SSRF). Checked at
// registration, for a clear 400, and again on every connection against the address really used
// (webhook-sender.ts), since a name can resolve elsewhere later.

const PRIVATE = new BlockList()
for (const [net, prefix] of [
  ['0.0.0.0', 8], ['10.0.0.0', 8], ['100.64.0.0', 10], ['127.0.0.0', 8], ['169.254.0.0', 16], ['172.16.0.0', 12],
  ['192.0.0.0', 24], ['192.0.2.0', 24], ['192.168.0.0', 16], ['198.18.0.0', 15], ['198.51.100.0', 24], ['203.0.113.0', 24],
  ['224.0.0.0', 4], ['240.0.0.0', 4],
] as const) PRIVATE.addSubnet(net, prefix, 'ipv4')
for (const [net, prefix] of [['::', 128], ['::1', 128], ['fc00::', 7], ['fe80::', 10], ['ff00::', 8], ['2001:db8::', 32], ['64:ff9b::', 96]] as const) {
  PRIVATE.addSubnet(net, prefix, 'ipv6')
}

/** The 16 bytes of an IPv6 address (isIP() said 6): "::" expanded, a trailing dotted quad read. */
function ipv6Bytes(address: string): number[] {
  let text = address.replace(/%.*$/, '')
  const quad = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text)
  if (quad) {
    const [a, b, c, d] = quad.slice(1).map(Number) as [number, number, number, number]
    text = `${text.slice(0, quad.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`
  }
  const [head, tail] = text.includes('::') ? text.split('::') as [string, string] : [text, null]
  const groups = (part: string) => (part ? part.split(':') : []).map((g) => parseInt(g, 16))
  const left = groups(head)
  const right = tail === null ? [] : groups(tail)
  const words = [...left, ...Array(8 - left.length - right.length).fill(0), ...right] as number[]
  return words.flatMap((w) => [w >> 8, w & 0xff])
}

const dotted = (bytes: number[]) => bytes.join('.')

/**
 * The IPv4 address an IPv6 form carries, checked as that IPv4 address would be: IPv4-mapped
 * (::ffff:0:0/96). The forms that reach an IPv4 host some other way - IPv4-compatible (::/96,
 * deprecated), 6to4 (2002::/16) and Teredo (2001::/32) - are refused whatever they embed: a
 * webhook has no business going through a tunnel, and e.g. http://[::127.0.0.1]/ must not pass.
 */
function embeddedIpv4(bytes: number[]): { ipv4: string } | 'tunnel' | null {
  const zeros = (from: number, to: number) => bytes.slice(from, to).every((b) => b === 0)
  if (zeros(0, 10) && bytes[10] === 0xff && bytes[11] === 0xff) return { ipv4: dotted(bytes.slice(12)) }
  if (zeros(0, 12)) return 'tunnel'
  if (bytes[0] === 0x20 && bytes[1] === 0x02) return 'tunnel'
  if (bytes[0] === 0x20 && bytes[1] === 0x01 && zeros(2, 4)) return 'tunnel'
  return null
}

/** Loopback, private, link-local, shared, reserved, documentation or multicast; an IPv6 form embedding IPv4 as above. */
export function isPrivateAddress(address: string): boolean {
  const family = isIP(address)
  if (family === 0) return true
  if (family === 4) return PRIVATE.check(address, 'ipv4')
  const embedded = embeddedIpv4(ipv6Bytes(address))
  if (embedded === 'tunnel') return true
  if (embedded) return PRIVATE.check(embedded.ipv4, 'ipv4')
  return PRIVATE.check(address, 'ipv6')
}

/** The URL as registered: http(s), no credentials in it, at most 2000 characters. */
export function parseWebhookUrl(value: string): URL {
  let url: URL
  try {
    url = new URL(value)
  } catch {
    throw ERR_WEBHOOK_URL_INVALID(`Not a URL: ${JSON.stringify(value.slice(0, 100))}`)
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw ERR_WEBHOOK_URL_INVALID('A webhook URL is http:// or https://')
  if (url.username || url.password) throw ERR_WEBHOOK_URL_INVALID('A webhook URL carries no user name or password')
  if (value.length > 2000) throw ERR_WEBHOOK_URL_INVALID('A webhook URL is at most 2000 characters')
  return url
}

/** Every address the host name resolves to must be public (unless private targets are allowed). */
export async function assertPublicTarget(url: URL, allowPrivate: boolean): Promise<void> {
  const host = url.hostname.replace(/^\[|\]$/g, '')
  let addresses: string[]
  try {
    addresses = isIP(host) ? [host] : (await lookup(host, { all: true, verbatim: true })).map((a) => a.address)
  } catch (error) {
    throw ERR_WEBHOOK_TARGET_UNRESOLVABLE(`${host} does not resolve: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`)
  }
  if (allowPrivate) return
  const refused = addresses.filter(isPrivateAddress)
  if (refused.length) throw ERR_WEBHOOK_TARGET_PRIVATE(`${host} resolves to ${refused.join(', ')}: a loopback or private address (set WEBHOOKS_ALLOW_PRIVATE=true to allow)`)
}
